#include "io/png_image.hpp"

#include "core/features.hpp"
#include "hpart/version.hpp"  // HPART_HAVE_PNG

#if HPART_HAVE_PNG
#include <png.h>
#endif

#include <cmath>
#include <cstdio>
#include <memory>

namespace hpart::detail {

Rgb part_colour(int part) {
  const double h = std::fmod(part * 0.6180339887498949, 1.0) * 6.0;
  const double s = 0.70, v = part % 2 == 0 ? 0.92 : 0.70;
  const double c = v * s, x = c * (1.0 - std::fabs(std::fmod(h, 2.0) - 1.0)), m = v - c;
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h)) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  auto byte = [m](double u) { return static_cast<std::uint8_t>(std::lround((u + m) * 255.0)); };
  return {byte(r), byte(g), byte(b)};
}

#if !HPART_HAVE_PNG
// Unreached (the writers check at their entry); a message, not a crash, if a new caller forgets.
std::string write_png_rgb(const std::string&, int, int, const std::vector<std::uint8_t>&) {
  return built_without("PNG", "write_png_rgb");
}
#else
std::string write_png_rgb(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb) {
  std::unique_ptr<FILE, int (*)(FILE*)> fp(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!fp) return "cannot open '" + path + "' for writing";
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, nullptr);
    return "libpng could not allocate its state";
  }
  // libpng reports errors by longjmp; nothing with a destructor lives between here and the end.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return "libpng failed writing '" + path + "'";
  }
  png_init_io(png, fp.get());
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, rgb.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width) * 3);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return std::fclose(fp.release()) == 0 ? std::string() : "cannot finish writing '" + path + "'";
}
#endif

}  // namespace hpart::detail
