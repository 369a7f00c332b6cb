#include "points/part_contacts.hpp"

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

GridMasks grid_masks(const ContactGrid& grid) {
  const std::size_t wpp = grid.words_per_part();
  GridMasks m;
  for (auto* v : {&m.x_lo, &m.x_hi, &m.y_lo, &m.y_hi, &m.valid}) v->assign(wpp, 0);
  const std::int64_t sx = grid.cells[0], sy = grid.cells[1], ncell = grid.num_cells();
  auto set = [](std::vector<std::uint64_t>& v, std::int64_t c) {
    v[static_cast<std::size_t>(c) / 64] |= std::uint64_t{1} << (static_cast<std::size_t>(c) % 64);
  };
  for (std::int64_t c = 0; c < ncell; ++c) {
    const std::int64_t x = c % sx, y = (c / sx) % sy;
    set(m.valid, c);
    if (x == 0) set(m.x_lo, c);
    if (x + 1 == sx) set(m.x_hi, c);
    if (y == 0) set(m.y_lo, c);
    if (y + 1 == sy) set(m.y_hi, c);
  }
  return m;
}

namespace {

// dst |= src shifted by s cells (towards higher cell indices when s > 0), except at the cells
// of `wrap` (those a shift by s reaches by wrapping around a grid line or plane; null: none),
// over the words [begin, end) of dst.
void or_shifted(std::span<std::uint64_t> dst, std::span<const std::uint64_t> src, std::int64_t s,
                const std::vector<std::uint64_t>* wrap, std::int64_t begin, std::int64_t end) {
  const auto W = static_cast<std::int64_t>(src.size());
  const std::int64_t q = (s >= 0 ? s : -s) / 64;
  const int r = static_cast<int>((s >= 0 ? s : -s) % 64);
  for (std::int64_t w = begin; w < end; ++w) {
    std::uint64_t v = 0;
    if (s >= 0) {  // bit b of the result is bit b - s of src
      const std::int64_t a = w - q;
      if (a >= 0) v = src[static_cast<std::size_t>(a)] << r;
      if (r != 0 && a - 1 >= 0) v |= src[static_cast<std::size_t>(a - 1)] >> (64 - r);
    } else {  // bit b of the result is bit b + |s| of src
      const std::int64_t a = w + q;
      if (a < W) v = src[static_cast<std::size_t>(a)] >> r;
      if (r != 0 && a + 1 < W) v |= src[static_cast<std::size_t>(a + 1)] << (64 - r);
    }
    if (wrap) v &= ~(*wrap)[static_cast<std::size_t>(w)];
    dst[static_cast<std::size_t>(w)] |= v;
  }
}

}  // namespace

void dilate_row(const ContactGrid& grid, const GridMasks& masks, std::span<const std::uint64_t> row, int rings,
                std::vector<std::uint64_t>& out, std::vector<std::uint64_t>& scratch) {
  const auto W = static_cast<std::int64_t>(row.size());
  out.assign(row.begin(), row.end());
  // A part occupies a compact block of cells, so a short range of words: only the words within
  // reach of it are worked on (each step reaches at most one plane, sx * sy cells, away).
  std::int64_t first = 0, last = W - 1;
  while (first < W && row[static_cast<std::size_t>(first)] == 0) ++first;
  while (last >= first && row[static_cast<std::size_t>(last)] == 0) --last;
  if (first > last) return;  // an empty part is near nothing
  const std::int64_t sx = grid.cells[0], sxy = sx * grid.cells[1];
  const std::int64_t reach = rings * ((grid.dim == 3 ? sxy : sx) / 64 + 2);
  const std::int64_t begin = std::max<std::int64_t>(0, first - reach), end = std::min(W, last + 1 + reach);
  // The L1 ball of radius `rings` is `rings` face-neighbour steps: dilate by one step that often.
  for (int k = 0; k < rings; ++k) {
    scratch.assign(out.begin(), out.end());
    const std::span<const std::uint64_t> src(scratch);
    or_shifted(out, src, 1, &masks.x_lo, begin, end);    // from x - 1: never into x == 0
    or_shifted(out, src, -1, &masks.x_hi, begin, end);   // from x + 1: never into the last x
    or_shifted(out, src, sx, &masks.y_lo, begin, end);   // from y - 1
    or_shifted(out, src, -sx, &masks.y_hi, begin, end);  // from y + 1
    if (grid.dim == 3) {  // z steps leave the grid at its ends, which the word range cuts off
      or_shifted(out, src, sxy, nullptr, begin, end);
      or_shifted(out, src, -sxy, nullptr, begin, end);
    }
    for (std::int64_t w = begin; w < end; ++w) out[static_cast<std::size_t>(w)] &= masks.valid[static_cast<std::size_t>(w)];
  }
}

NearParts near_parts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap, int rings) {
  NearParts out = cell_parts(grid, num_parts, bitmap);
  for (int r = 0; r < rings; ++r) out = dilate(grid, out);
  return out;
}

namespace {

// Every contact of the bitmap, one call count(p, q) each (p != q, in either order); `owner` gets
// per cell its only part (>= 0), -1 when empty, or -2 - s for the s-th cell shared by several
// parts, whose parts are listed (CSR) apart: most cells hold one part, and their contacts are
// then one comparison per face.
template <class Count>
void count_contacts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap,
                    std::vector<std::int32_t>& owner, Count&& count) {
  const std::int64_t ncell = grid.num_cells();
  const std::size_t wpp = grid.words_per_part();
  owner.assign(static_cast<std::size_t>(ncell), -1);
  auto for_each_bit = [&](auto&& f) {
    for (int p = 0; p < num_parts; ++p)
      for (std::size_t w = 0; w < wpp; ++w)
        for (std::uint64_t bits = bitmap[static_cast<std::size_t>(p) * wpp + w]; bits; bits &= bits - 1)
          f(p, w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
  };
  for_each_bit([&](int p, std::size_t c) { owner[c] = owner[c] == -1 ? p : -2; });
  std::int32_t shared = 0;
  for (std::int32_t& o : owner)
    if (o == -2) o = -2 - shared++;
  std::vector<std::int32_t> start(static_cast<std::size_t>(shared) + 1, 0);
  for_each_bit([&](int, std::size_t c) {
    if (owner[c] <= -2) ++start[static_cast<std::size_t>(-2 - owner[c]) + 1];
  });
  for (std::size_t k = 0; k < static_cast<std::size_t>(shared); ++k) start[k + 1] += start[k];
  std::vector<int> parts(static_cast<std::size_t>(start.back()));
  std::vector<std::int32_t> fill(start.begin(), start.end() - 1);
  for_each_bit([&](int p, std::size_t c) {
    if (owner[c] <= -2) parts[static_cast<std::size_t>(fill[static_cast<std::size_t>(-2 - owner[c])]++)] = p;
  });
  auto contact = [&](std::int64_t a, std::int64_t b) {  // a != b, both occupied
    const std::int32_t oa = owner[static_cast<std::size_t>(a)], ob = owner[static_cast<std::size_t>(b)];
    if (oa >= 0 && ob >= 0) {
      if (oa != ob) count(oa, ob);
      return;
    }
    const int* pa = oa >= 0 ? &oa : parts.data() + start[static_cast<std::size_t>(-2 - oa)];
    const int* ea = oa >= 0 ? pa + 1 : parts.data() + start[static_cast<std::size_t>(-2 - oa) + 1];
    const int* pb = ob >= 0 ? &ob : parts.data() + start[static_cast<std::size_t>(-2 - ob)];
    const int* eb = ob >= 0 ? pb + 1 : parts.data() + start[static_cast<std::size_t>(-2 - ob) + 1];
    for (const int* i = pa; i != ea; ++i)
      for (const int* j = pb; j != eb; ++j)
        if (*i != *j) count(*i, *j);
  };
  const std::int64_t sx = grid.cells[0], sy = grid.cells[1], sz = grid.dim == 3 ? grid.cells[2] : 1;
  for (std::int64_t z = 0; z < sz; ++z)
    for (std::int64_t y = 0; y < sy; ++y)
      for (std::int64_t x = 0; x < sx; ++x) {
        const std::int64_t c = x + sx * (y + sy * z);
        const std::int32_t o = owner[static_cast<std::size_t>(c)];
        if (o == -1) continue;
        if (o <= -2)  // the pairs within a shared cell
          for (std::int32_t i = start[static_cast<std::size_t>(-2 - o)]; i < start[static_cast<std::size_t>(-2 - o) + 1]; ++i)
            for (std::int32_t j = i + 1; j < start[static_cast<std::size_t>(-2 - o) + 1]; ++j)
              count(parts[static_cast<std::size_t>(i)], parts[static_cast<std::size_t>(j)]);
        if (x + 1 < sx && owner[static_cast<std::size_t>(c + 1)] != -1) contact(c, c + 1);
        if (y + 1 < sy && owner[static_cast<std::size_t>(c + sx)] != -1) contact(c, c + sx);
        if (z + 1 < sz && owner[static_cast<std::size_t>(c + sx * sy)] != -1) contact(c, c + sx * sy);
      }
}

// The edges (p < q ascending) and surface of a dense K x K table of contact counts (upper triangle).
PartContacts contacts_of_table(int num_parts, std::span<const std::uint32_t> table) {
  PartContacts out;
  for (int p = 0; p < num_parts; ++p)
    for (int q = p + 1; q < num_parts; ++q)
      if (const std::uint32_t c = table[static_cast<std::size_t>(p) * static_cast<std::size_t>(num_parts) + static_cast<std::size_t>(q)]) {
        out.edges.push_back({p, q, static_cast<double>(c)});
        out.surface += static_cast<double>(c);
      }
  return out;
}

}  // namespace

PartContacts part_contacts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap,
                           std::vector<std::int32_t>* owner_buffer) {
  std::vector<std::int32_t> own_owner;
  std::vector<std::int32_t>& owner = owner_buffer ? *owner_buffer : own_owner;
  const auto K = static_cast<std::size_t>(num_parts);
  // Contacts counted in a dense K x K table while that is small, else as sorted keys.
  if (num_parts <= ContactTable::kMaxParts) {
    std::vector<std::uint32_t> table(K * K, 0);
    count_contacts(grid, num_parts, bitmap, owner, [&](int p, int q) {
      ++table[static_cast<std::size_t>(std::min(p, q)) * K + static_cast<std::size_t>(std::max(p, q))];
    });
    return contacts_of_table(num_parts, table);
  }
  std::vector<std::uint64_t> keys;  // (p << 32 | q), one per contact
  count_contacts(grid, num_parts, bitmap, owner, [&](int p, int q) {
    keys.push_back(static_cast<std::uint64_t>(std::min(p, q)) << 32 | static_cast<std::uint32_t>(std::max(p, q)));
  });
  PartContacts out;
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

void ContactTable::rebuild(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap) {
  grid_ = grid;
  k_ = num_parts;
  const auto K = static_cast<std::size_t>(num_parts);
  table_.assign(K * K, 0);
  count_contacts(grid, num_parts, bitmap, owner_, [&](int p, int q) {
    ++table_[static_cast<std::size_t>(std::min(p, q)) * K + static_cast<std::size_t>(std::max(p, q))];
  });
  for (std::int32_t& o : owner_) o = std::max(o, -2);
  valid_ = true;
}

void ContactTable::parts_of(std::span<const std::uint64_t> bitmap, std::size_t c, std::vector<int>& out) const {
  out.clear();
  const std::int32_t o = owner_[c];
  if (o >= 0) {
    out.push_back(o);
  } else if (o == -2) {
    const std::size_t wpp = grid_.words_per_part();
    for (int p = 0; p < k_; ++p)
      if ((bitmap[static_cast<std::size_t>(p) * wpp + c / 64] >> (c % 64)) & 1u) out.push_back(p);
  }
}

bool ContactTable::update(std::span<const std::uint64_t> old_bits, std::span<const std::uint64_t> new_bits) {
  if (!valid_) return false;
  const std::size_t wpp = grid_.words_per_part(), K = static_cast<std::size_t>(k_);
  const auto ncell = static_cast<std::size_t>(grid_.num_cells());
  // The cells whose parts changed: one word-wide pass over the rows.
  changed_words_.assign(wpp, 0);
  for (std::size_t p = 0; p < K; ++p)
    for (std::size_t w = 0; w < wpp; ++w) changed_words_[w] |= old_bits[p * wpp + w] ^ new_bits[p * wpp + w];
  changed_.clear();
  for (std::size_t w = 0; w < wpp; ++w)
    for (std::uint64_t bits = changed_words_[w]; bits; bits &= bits - 1)
      changed_.push_back(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
  if (changed_.size() > ncell / 4) return valid_ = false;  // a rebuild is as fast
  auto is_changed = [&](std::size_t c) { return (changed_words_[c / 64] >> (c % 64)) & 1u; };
  const std::int64_t sx = grid_.cells[0], sy = grid_.cells[1], sz = grid_.dim == 3 ? grid_.cells[2] : 1;
  // Each cell pair at a changed cell once: the pair within it, and each face pair unless the
  // other cell is changed too and comes first.
  auto recount = [&](std::span<const std::uint64_t> bits, std::uint32_t sign) {
    for (const std::size_t c : changed_) {
      parts_of(bits, c, here_);
      if (here_.empty()) continue;
      for (std::size_t i = 0; i < here_.size(); ++i)
        for (std::size_t j = i + 1; j < here_.size(); ++j)
          table_[static_cast<std::size_t>(here_[i]) * K + static_cast<std::size_t>(here_[j])] += sign;
      const auto ci = static_cast<std::int64_t>(c);
      const std::int64_t x = ci % sx, y = (ci / sx) % sy, z = ci / (sx * sy);
      const std::int64_t nb[6] = {x > 0 ? ci - 1 : -1,           x + 1 < sx ? ci + 1 : -1,
                                  y > 0 ? ci - sx : -1,          y + 1 < sy ? ci + sx : -1,
                                  z > 0 ? ci - sx * sy : -1,     z + 1 < sz ? ci + sx * sy : -1};
      for (const std::int64_t m : nb) {
        if (m < 0 || (is_changed(static_cast<std::size_t>(m)) && m < ci)) continue;
        parts_of(bits, static_cast<std::size_t>(m), there_);
        for (const int p : here_)
          for (const int q : there_)
            if (p != q) table_[static_cast<std::size_t>(std::min(p, q)) * K + static_cast<std::size_t>(std::max(p, q))] += sign;
      }
    }
  };
  recount(old_bits, ~std::uint32_t{0});  // adding 2^32 - 1 subtracts one
  for (const std::size_t c : changed_) {  // the new owners of the changed cells
    std::int32_t o = -1;
    for (std::size_t p = 0; p < K && o != -2; ++p)
      if ((new_bits[p * wpp + c / 64] >> (c % 64)) & 1u) o = o == -1 ? static_cast<std::int32_t>(p) : -2;
    owner_[c] = o;
  }
  recount(new_bits, 1);
  return true;
}

PartContacts ContactTable::contacts() const { return contacts_of_table(k_, table_); }

}  // namespace hpart::repart
