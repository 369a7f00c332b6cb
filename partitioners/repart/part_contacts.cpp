#include "repart/part_contacts.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace hpart::repart {

ContactGrid make_contact_grid(int dim, const double* lo, const double* hi, int num_parts, double objects) {
  ContactGrid g;
  g.dim = dim;
  double longest = 0.0;
  for (int d = 0; d < dim; ++d) {
    g.lo[static_cast<std::size_t>(d)] = lo[d];
    longest = std::max(longest, hi[d] - lo[d]);
  }
  const double budget = 8.0 * 1024 * 1024 / std::max(1, num_parts);
  int side = static_cast<int>(std::floor(std::pow(std::min(budget, std::max(1.0, objects / 4)), 1.0 / dim) + 1e-9));
  side = std::clamp(side, 2, 64);
  const double cell = longest > 0.0 ? longest / side : 1.0;
  g.inv_cell = 1.0 / cell;
  for (int d = 0; d < dim; ++d)
    g.cells[static_cast<std::size_t>(d)] =
        std::clamp(static_cast<int>(std::ceil((hi[d] - lo[d]) * g.inv_cell)), 1, side);
  return g;
}

namespace {

// Parts occupying each cell, CSR by cell.
NearParts cell_parts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap) {
  const std::int64_t ncell = grid.num_cells();
  const std::size_t wpp = grid.words_per_part();
  NearParts out;
  out.start.assign(static_cast<std::size_t>(ncell) + 1, 0);
  for (int p = 0; p < num_parts; ++p)
    for (std::size_t w = 0; w < wpp; ++w)
      for (std::uint64_t bits = bitmap[static_cast<std::size_t>(p) * wpp + w]; bits; bits &= bits - 1)
        ++out.start[w * 64 + static_cast<std::size_t>(std::countr_zero(bits)) + 1];
  for (std::size_t c = 0; c < static_cast<std::size_t>(ncell); ++c) out.start[c + 1] += out.start[c];
  out.parts.resize(static_cast<std::size_t>(out.start.back()));
  std::vector<std::int64_t> fill(out.start.begin(), out.start.end() - 1);
  for (int p = 0; p < num_parts; ++p)
    for (std::size_t w = 0; w < wpp; ++w)
      for (std::uint64_t bits = bitmap[static_cast<std::size_t>(p) * wpp + w]; bits; bits &= bits - 1)
        out.parts[static_cast<std::size_t>(fill[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))]++)] = p;
  return out;
}

}  // namespace

namespace {

// Per cell, the parts of `own` in it or in a face-adjacent cell.
NearParts dilate(const ContactGrid& grid, const NearParts& own) {
  const std::int64_t sx = grid.cells[0], sy = grid.cells[1], sz = grid.dim == 3 ? grid.cells[2] : 1;
  NearParts out;
  out.start.assign(own.start.size(), 0);
  std::vector<int> here;
  for (std::int64_t z = 0; z < sz; ++z)
    for (std::int64_t y = 0; y < sy; ++y)
      for (std::int64_t x = 0; x < sx; ++x) {
        const std::int64_t c = x + sx * (y + sy * z);
        // Interior cells (one part here and in every face neighbour) are the common case.
        auto single = [&](std::int64_t k) {
          return own.start[static_cast<std::size_t>(k) + 1] - own.start[static_cast<std::size_t>(k)] == 1 &&
                 own.parts[static_cast<std::size_t>(own.start[static_cast<std::size_t>(k)])] ==
                     own.parts[static_cast<std::size_t>(own.start[static_cast<std::size_t>(c)])];
        };
        if (single(c) && (x == 0 || single(c - 1)) && (x + 1 == sx || single(c + 1)) && (y == 0 || single(c - sx)) &&
            (y + 1 == sy || single(c + sx)) && (z == 0 || single(c - sx * sy)) && (z + 1 == sz || single(c + sx * sy))) {
          out.parts.push_back(own.parts[static_cast<std::size_t>(own.start[static_cast<std::size_t>(c)])]);
          out.start[static_cast<std::size_t>(c) + 1] = static_cast<std::int64_t>(out.parts.size());
          continue;
        }
        here.clear();
        auto add = [&](std::int64_t k) {
          for (std::int64_t i = own.start[static_cast<std::size_t>(k)]; i < own.start[static_cast<std::size_t>(k) + 1]; ++i)
            here.push_back(own.parts[static_cast<std::size_t>(i)]);
        };
        add(c);
        if (x > 0) add(c - 1);
        if (x + 1 < sx) add(c + 1);
        if (y > 0) add(c - sx);
        if (y + 1 < sy) add(c + sx);
        if (z > 0) add(c - sx * sy);
        if (z + 1 < sz) add(c + sx * sy);
        std::sort(here.begin(), here.end());
        here.erase(std::unique(here.begin(), here.end()), here.end());
        out.parts.insert(out.parts.end(), here.begin(), here.end());
        out.start[static_cast<std::size_t>(c) + 1] = static_cast<std::int64_t>(out.parts.size());
      }
  return out;
}

}  // namespace

NearParts near_parts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap, int rings) {
  NearParts out = cell_parts(grid, num_parts, bitmap);
  for (int r = 0; r < rings; ++r) out = dilate(grid, out);
  return out;
}

PartContacts part_contacts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap) {
  const std::int64_t ncell = grid.num_cells();
  const std::size_t wpp = grid.words_per_part();
  // Parts of each cell, CSR by cell.
  std::vector<std::int64_t> start(static_cast<std::size_t>(ncell) + 1, 0);
  for (int p = 0; p < num_parts; ++p)
    for (std::size_t w = 0; w < wpp; ++w)
      for (std::uint64_t bits = bitmap[static_cast<std::size_t>(p) * wpp + w]; bits; bits &= bits - 1)
        ++start[w * 64 + static_cast<std::size_t>(std::countr_zero(bits)) + 1];
  for (std::size_t c = 0; c < static_cast<std::size_t>(ncell); ++c) start[c + 1] += start[c];
  std::vector<int> parts(static_cast<std::size_t>(start.back()));
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (int p = 0; p < num_parts; ++p)
    for (std::size_t w = 0; w < wpp; ++w)
      for (std::uint64_t bits = bitmap[static_cast<std::size_t>(p) * wpp + w]; bits; bits &= bits - 1)
        parts[static_cast<std::size_t>(fill[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))]++)] = p;

  // Contacts counted in a dense K x K table while that is small, else as sorted keys.
  const bool dense = num_parts <= 2048;
  std::vector<std::uint32_t> table(dense ? static_cast<std::size_t>(num_parts) * static_cast<std::size_t>(num_parts) : 0, 0);
  std::vector<std::uint64_t> keys;  // (p << 32 | q), one per contact
  auto contact = [&](std::int64_t a, std::int64_t b) {
    for (std::int64_t i = start[static_cast<std::size_t>(a)]; i < start[static_cast<std::size_t>(a) + 1]; ++i)
      for (std::int64_t j = start[static_cast<std::size_t>(b)]; j < start[static_cast<std::size_t>(b) + 1]; ++j) {
        const int p = parts[static_cast<std::size_t>(i)], q = parts[static_cast<std::size_t>(j)];
        if (a == b ? p < q : p != q) {
          if (dense)
            ++table[static_cast<std::size_t>(std::min(p, q)) * static_cast<std::size_t>(num_parts) + static_cast<std::size_t>(std::max(p, q))];
          else
            keys.push_back(static_cast<std::uint64_t>(std::min(p, q)) << 32 | static_cast<std::uint32_t>(std::max(p, q)));
        }
      }
  };
  const std::int64_t sx = grid.cells[0], sy = grid.cells[1], sz = grid.dim == 3 ? grid.cells[2] : 1;
  for (std::int64_t z = 0; z < sz; ++z)
    for (std::int64_t y = 0; y < sy; ++y)
      for (std::int64_t x = 0; x < sx; ++x) {
        const std::int64_t c = x + sx * (y + sy * z);
        if (start[static_cast<std::size_t>(c)] == start[static_cast<std::size_t>(c) + 1]) continue;
        contact(c, c);
        if (x + 1 < sx) contact(c, c + 1);
        if (y + 1 < sy) contact(c, c + sx);
        if (z + 1 < sz) contact(c, c + sx * sy);
      }
  PartContacts out;
  if (dense) {
    for (int p = 0; p < num_parts; ++p)
      for (int q = p + 1; q < num_parts; ++q)
        if (const std::uint32_t c = table[static_cast<std::size_t>(p) * static_cast<std::size_t>(num_parts) + static_cast<std::size_t>(q)]) {
          out.edges.push_back({p, q, static_cast<double>(c)});
          out.surface += static_cast<double>(c);
        }
    return out;
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    out.edges.push_back({static_cast<int>(keys[i] >> 32), static_cast<int>(keys[i] & 0xffffffffu),
                         static_cast<double>(j - i)});
    out.surface += static_cast<double>(j - i);
    i = j;
  }
  return out;
}

}  // namespace hpart::repart
