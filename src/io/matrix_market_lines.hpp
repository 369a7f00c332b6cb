#pragma once
// Pure parsing kernel of MatrixMarket coordinate files (no MPI, no files), read as graphs:
//   %%MatrixMarket matrix coordinate <real|integer|pattern|complex> <general|symmetric|skew-symmetric|hermitian>
//   % comments
//   rows cols nnz        the size line: the first line that is neither blank nor a comment
//   i j [value [imag]]   nnz entry lines, 1-based
// Blank lines and '%' comments may appear anywhere after the banner (as mmio reads them).
// Values are checked to be numbers but otherwise ignored: the graph is the pattern.
#include <string>
#include <string_view>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::detail {

struct MatrixMarketBanner {
  int values_per_entry = 0;  // pattern 0, real and integer 1, complex 2
};
// Parses the first line of the file; "" or why it is not a supported banner.
std::string parse_matrix_market_banner(std::string_view line, MatrixMarketBanner& banner);

struct MatrixMarketSize {
  gid_t rows = 0;
  gid_t entries = 0;  // nnz: the number of entry lines
};
// Parses the size line `rows cols nnz`; "" or why it is malformed (rows must equal cols).
std::string parse_matrix_market_size(std::string_view line, MatrixMarketSize& size);

struct MatrixEntries {
  std::vector<gid_t> pairs;  // (i, j) 0-based, i != j, two values per off-diagonal entry
  long long entries = 0;     // entry lines parsed, the diagonal ones included
  long long bad_line = -1;   // buffer line index of the first malformed line, or -1
  std::string bad_reason;
};
// Parses the entry lines among buffer lines [from, end); the first is entry `first_entry`
// (0-based) of the file. Checks each number, 1 <= i, j <= rows, the value count, and that no
// more than nnz entries exist. Stops at the first malformed line.
MatrixEntries parse_matrix_market_entries(std::string_view text, long long from, const MatrixMarketBanner& banner,
                                          const MatrixMarketSize& size, long long first_entry);

}  // namespace hpart::detail
