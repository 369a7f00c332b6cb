#pragma once
// Line and token scanning shared by the graph file kernels (METIS/Chaco, MatrixMarket): pure,
// allocation-free, locale-free (std::from_chars). A line is the text up to a '\n'; a last line
// without '\n' counts too. Tokens are separated by blanks, tabs and '\r' (so "\r\n" files read).
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace hpart::detail {

constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Walks the lines of a buffer; index() is the buffer line index of the line last returned.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t eol = text_.find('\n', pos_);
    if (eol == std::string_view::npos) eol = text_.size();
    line = text_.substr(pos_, eol - pos_);
    pos_ = eol + 1;
    ++index_;
    return true;
  }
  [[nodiscard]] long long index() const { return index_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  long long index_ = -1;
};

// What a line is, for both formats: comments start with '%' (after optional blanks).
enum class LineKind { blank, comment, record };
inline LineKind line_kind(std::string_view line) {
  for (const char c : line) {
    if (is_blank(c)) continue;
    return c == '%' ? LineKind::comment : LineKind::record;
  }
  return LineKind::blank;
}

// Splits a line into tokens one at a time.
class TokenCursor {
 public:
  explicit TokenCursor(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}
  bool next(std::string_view& token) {
    while (p_ < end_ && is_blank(*p_)) ++p_;
    if (p_ == end_) return false;
    const char* start = p_;
    while (p_ < end_ && !is_blank(*p_)) ++p_;
    token = std::string_view(start, static_cast<std::size_t>(p_ - start));
    return true;
  }
  [[nodiscard]] bool done() {
    while (p_ < end_ && is_blank(*p_)) ++p_;
    return p_ == end_;
  }

 private:
  const char* p_;
  const char* end_;
};

// A token for a message: quoted, cut at 40 characters. Appended piece by piece, not as "'" + ...:
// GCC 12 warns falsely (-Wrestrict) on that.
inline std::string quote_token(std::string_view token) {
  std::string quoted(1, '\'');
  quoted.append(token.substr(0, 40));
  quoted.append(token.size() > 40 ? "...'" : "'");
  return quoted;
}

// Parses a whole token as a decimal integer (an optional '+' or '-' sign); "" or why not.
inline std::string parse_integer(std::string_view token, std::int64_t& value) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (first < last && *first == '+') ++first;  // from_chars rejects '+', which writers emit
  const auto [stop, ec] = std::from_chars(first, last, value);
  if (ec == std::errc() && stop == last) return {};
  const std::string quoted = quote_token(token);
  if (ec == std::errc::result_out_of_range) return quoted + " is out of range";
  double real = 0.0;
  const auto [rstop, rec] = std::from_chars(first, last, real);
  if (rec == std::errc() && rstop == last) return quoted + " is not an integer";
  return quoted + " is not a number";
}

}  // namespace hpart::detail
