#include "io/matrix_market_lines.hpp"

#include <charconv>
#include <cstdint>

#include "io/file_limits.hpp"
#include "io/text_tokens.hpp"

namespace hpart::detail {
namespace {

// MatrixMarket banner words are case-insensitive.
bool same_word(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

}  // namespace

std::string parse_matrix_market_banner(std::string_view line, MatrixMarketBanner& banner) {
  banner = MatrixMarketBanner{};
  const std::string expected = "'%%MatrixMarket matrix coordinate <real|integer|pattern|complex> <general|symmetric|"
                               "skew-symmetric|hermitian>'";
  TokenCursor tokens(line);
  std::string_view word[5];
  int count = 0;
  while (count < 5 && tokens.next(word[count])) ++count;
  if (count == 0 || !same_word(word[0], "%%matrixmarket"))
    return "not a MatrixMarket file: the first line must be " + expected;
  if (count != 5 || !tokens.done()) return "the banner must have 5 words: " + expected;
  if (!same_word(word[1], "matrix")) return "object " + quote_token(word[1]) + " is not supported: only 'matrix'";
  if (same_word(word[2], "array"))
    return "dense 'array' MatrixMarket files are not supported: a graph needs the sparse 'coordinate' format";
  if (!same_word(word[2], "coordinate")) return "format " + quote_token(word[2]) + " is not supported: only 'coordinate'";
  if (same_word(word[3], "pattern")) {
    banner.values_per_entry = 0;
  } else if (same_word(word[3], "real") || same_word(word[3], "integer")) {
    banner.values_per_entry = 1;
  } else if (same_word(word[3], "complex")) {
    banner.values_per_entry = 2;
  } else {
    return "field " + quote_token(word[3]) + " is not supported: real, integer, pattern or complex";
  }
  if (!same_word(word[4], "general") && !same_word(word[4], "symmetric") && !same_word(word[4], "skew-symmetric") &&
      !same_word(word[4], "hermitian"))
    return "symmetry " + quote_token(word[4]) + " is not supported: general, symmetric, skew-symmetric or hermitian";
  return {};
}

std::string parse_matrix_market_size(std::string_view line, MatrixMarketSize& size) {
  size = MatrixMarketSize{};
  TokenCursor tokens(line);
  std::string_view tok;
  std::int64_t v[3] = {0, 0, 0};
  const char* names[3] = {"rows", "cols", "nnz"};
  for (int k = 0; k < 3; ++k) {
    if (!tokens.next(tok)) return "the size line must be 'rows cols nnz'";
    const std::string why = parse_integer(tok, v[k]);
    if (!why.empty()) return std::string(names[k]) + ": " + why;
    if (v[k] < 0 || v[k] > kMaxFileCount) return std::string(names[k]) + " = " + std::to_string(v[k]) + " must be in [0, 2^62]";
  }
  if (!tokens.done()) return "the size line must be 'rows cols nnz' (3 values)";
  if (v[0] != v[1])
    return "the matrix is " + std::to_string(v[0]) + " x " + std::to_string(v[1]) + ": a graph needs a square matrix";
  size.rows = v[0];
  size.entries = v[2];
  return {};
}

MatrixEntries parse_matrix_market_entries(std::string_view text, long long from, const MatrixMarketBanner& banner,
                                          const MatrixMarketSize& size, long long first_entry) {
  MatrixEntries out;
  LineCursor cursor(text);
  std::string_view line, tok;
  const std::string range = " is out of range [1, " + std::to_string(size.rows) + "]";
  auto fail = [&](std::string why) {
    out.bad_line = cursor.index();
    out.bad_reason = std::move(why);
  };
  while (out.bad_line < 0 && cursor.next(line)) {
    if (cursor.index() < from || line_kind(line) != LineKind::record) continue;
    if (first_entry + out.entries >= size.entries) {
      fail("more entry lines than the size line's nnz = " + std::to_string(size.entries));
      break;
    }
    TokenCursor tokens(line);
    std::int64_t ij[2] = {0, 0};
    for (int k = 0; k < 2 && out.bad_line < 0; ++k) {
      const char* name = k == 0 ? "row" : "column";
      std::string why = tokens.next(tok) ? parse_integer(tok, ij[k]) : std::string("is missing");
      if (!why.empty()) {
        fail(std::string(name) + " index: " + why);
      } else if (ij[k] < 1 || ij[k] > size.rows) {
        fail(std::string(name) + " index " + std::to_string(ij[k]) + range);
      }
    }
    int values = 0;
    while (out.bad_line < 0 && tokens.next(tok)) {
      double v = 0.0;
      const char* first = tok.data() + (tok.front() == '+' ? 1 : 0);
      const auto [stop, ec] = std::from_chars(first, tok.data() + tok.size(), v);
      if (ec == std::errc::invalid_argument || stop != tok.data() + tok.size()) {
        fail("value " + quote_token(tok) + " is not a number");
      }
      ++values;
    }
    if (out.bad_line < 0 && values != banner.values_per_entry)
      fail("has " + std::to_string(values) + " value" + (values == 1 ? "" : "s") + " after i j; the banner's field needs " +
           std::to_string(banner.values_per_entry));
    if (out.bad_line >= 0) break;
    ++out.entries;
    if (ij[0] == ij[1]) continue;  // the diagonal is no edge
    out.pairs.push_back(ij[0] - 1);
    out.pairs.push_back(ij[1] - 1);
  }
  return out;
}

}  // namespace hpart::detail
