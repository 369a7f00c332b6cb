#include "io/picture_canvas.hpp"

#include "core/features.hpp"
#include "hpart/version.hpp"  // HPART_HAVE_PNG

#if HPART_HAVE_PNG
#include <cairo.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace hpart::detail {

Drawing draw_labels(std::span<const part_t> label, int w, int h, std::span<const Rgb> colours,
                    std::span<const int> node_of_part) {
  Drawing d(w, h);
  auto at = [&](int x, int y) { return label[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)]; };
  auto node = [&](part_t q) { return node_of_part[static_cast<std::size_t>(q)]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const part_t q = at(x, y);
      if (q < 0) continue;
      bool part_edge = false, node_edge = false;
      const int nx[4] = {x + 1, x, x - 1, x}, ny[4] = {y, y + 1, y, y - 1};  // right, below, left, above
      for (int k = 0; k < 4; ++k) {
        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= w || ny[k] >= h) continue;
        const part_t r = at(nx[k], ny[k]);
        if (r < 0 || r == q) continue;
        part_edge = part_edge || k < 2;
        node_edge = node_edge || (!node_of_part.empty() && node(r) != node(q));
      }
      const Rgb c = colours[static_cast<std::size_t>(q)];
      d.at(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) =
          node_edge ? Rgb{20, 20, 20} : part_edge ? darker(c, 0.45) : c;
    }
  return d;
}

#if !HPART_HAVE_PNG
// Unreached (the writers check at their entry); a message, not a crash, if a new caller forgets.
std::string write_picture(const std::string&, const Drawing&, const PictureOptions&, std::span<const Rgb>) {
  return built_without("PNG", "write_picture");
}
#else
namespace {

constexpr int kPad = 12;               // margin around the header and the drawing under it
constexpr int kMinHeaderWidth = 480;   // room for a title and a legend line beside a narrow drawing
constexpr double kTitleSize = 20, kLegendSize = 14, kSwatchTextSize = 12, kLabelSize = 13, kSwatch = 14;
constexpr const char* kFont = "DejaVu Sans";  // fonts-dejavu-core; fontconfig substitutes a sans otherwise

void set_font(cairo_t* cr, double size, bool bold) {
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

struct HeaderSize {
  int height = 0;
  double widest = 0;  // the longest text line, in pixels
};

// Lays out the header of a picture `width` wide (and draws it when `draw`).
HeaderSize header(cairo_t* cr, int width, const PictureOptions& o, std::span<const Rgb> colours, bool draw) {
  double y = kPad, widest = 0;
  cairo_font_extents_t fe;
  auto line = [&](const std::string& text, double size, bool bold) {
    set_font(cr, size, bold);
    cairo_font_extents(cr, &fe);
    cairo_text_extents_t te;
    cairo_text_extents(cr, text.c_str(), &te);
    widest = std::max(widest, te.x_advance);
    y += fe.ascent;
    if (draw) {
      cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
      cairo_move_to(cr, kPad, y);
      cairo_show_text(cr, text.c_str());
    }
    y += fe.descent + 3;
  };
  if (!o.title.empty()) line(o.title, kTitleSize, true);
  for (const std::string& l : o.legend) line(l, kLegendSize, false);
  if (!colours.empty() && colours.size() <= static_cast<std::size_t>(kMaxSwatches)) {
    set_font(cr, kSwatchTextSize, false);
    y += 4;
    double x = kPad;
    for (std::size_t p = 0; p < colours.size(); ++p) {
      const std::string text = std::to_string(p);
      cairo_text_extents_t te;
      cairo_text_extents(cr, text.c_str(), &te);
      const double entry = kSwatch + 4 + te.x_advance + 12;
      if (x > kPad && x + entry > width - kPad) x = kPad, y += kSwatch + 6;  // next row
      if (draw) {
        cairo_rectangle(cr, x + 0.5, y + 0.5, kSwatch - 1, kSwatch - 1);
        cairo_set_source_rgb(cr, colours[p].r / 255.0, colours[p].g / 255.0, colours[p].b / 255.0);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
        cairo_move_to(cr, x + kSwatch + 4, y + kSwatch - 2);
        cairo_show_text(cr, text.c_str());
      }
      x += entry;
    }
    y += kSwatch + 6;
  }
  return {static_cast<int>(std::ceil(y)) + kPad / 2, widest};
}

cairo_status_t write_to(void* file, const unsigned char* data, unsigned int length) {
  return std::fwrite(data, 1, length, static_cast<FILE*>(file)) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

}  // namespace

std::string write_picture(const std::string& path, const Drawing& drawing, const PictureOptions& options,
                          std::span<const Rgb> part_colours) {
  const bool has_header = !options.title.empty() || !options.legend.empty();
  int width = drawing.width, height = drawing.height, ox = 0, oy = 0;
  if (has_header) {
    // As wide as the drawing, the longest text line and kMinHeaderWidth; swatches wrap to it.
    Surface scratch(cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1), &cairo_surface_destroy);
    Context cr(cairo_create(scratch.get()), &cairo_destroy);
    const double widest = header(cr.get(), kMinHeaderWidth, options, part_colours, false).widest;
    width = std::max({drawing.width + 2 * kPad, kMinHeaderWidth, static_cast<int>(std::ceil(widest)) + 2 * kPad});
    oy = header(cr.get(), width, options, part_colours, false).height;
    ox = (width - drawing.width) / 2;
    height = oy + drawing.height + kPad;
  }
  Surface canvas(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), &cairo_surface_destroy);
  if (cairo_surface_status(canvas.get()) != CAIRO_STATUS_SUCCESS)
    return std::string("cairo could not make a picture of ") + std::to_string(width) + " x " + std::to_string(height) +
           " pixels: " + cairo_status_to_string(cairo_surface_status(canvas.get()));
  Context cr(cairo_create(canvas.get()), &cairo_destroy);
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  cairo_surface_flush(canvas.get());
  unsigned char* data = cairo_image_surface_get_data(canvas.get());
  const auto stride = static_cast<std::size_t>(cairo_image_surface_get_stride(canvas.get()));
  for (int y = 0; y < drawing.height; ++y) {
    auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::size_t>(y + oy) * stride) + ox;
    for (int x = 0; x < drawing.width; ++x) {
      const Rgb c = drawing.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(drawing.width) + static_cast<std::size_t>(x)];
      row[x] = (std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b;  // CAIRO_FORMAT_RGB24
    }
  }
  cairo_surface_mark_dirty(canvas.get());
  // Greyscale antialiasing: no colour fringes, and the same bytes on every machine with the font.
  std::unique_ptr<cairo_font_options_t, decltype(&cairo_font_options_destroy)> fo(cairo_font_options_create(),
                                                                                  &cairo_font_options_destroy);
  cairo_font_options_set_antialias(fo.get(), CAIRO_ANTIALIAS_GRAY);
  cairo_set_font_options(cr.get(), fo.get());
  if (has_header) header(cr.get(), width, options, part_colours, true);
  set_font(cr.get(), kLabelSize, false);
  cairo_set_source_rgb(cr.get(), 0.15, 0.15, 0.15);
  for (const PanelLabel& l : drawing.labels) {
    cairo_move_to(cr.get(), ox + l.x + 2, oy + l.y + 15);
    cairo_show_text(cr.get(), l.text.c_str());
  }
  cairo_surface_flush(canvas.get());

  std::unique_ptr<FILE, int (*)(FILE*)> fp(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!fp) return "cannot open '" + path + "' for writing";
  if (cairo_surface_write_to_png_stream(canvas.get(), &write_to, fp.get()) != CAIRO_STATUS_SUCCESS)
    return "cannot write '" + path + "'";
  return std::fclose(fp.release()) == 0 ? std::string() : "cannot finish writing '" + path + "'";
}
#endif

}  // namespace hpart::detail
