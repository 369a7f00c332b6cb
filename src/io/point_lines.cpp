#include "io/point_lines.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace hpart::detail {
namespace {

// Lines in `text`: one per '\n', plus a last one without '\n'.
long long count_lines(std::string_view text) {
  long long n = 0;
  for (char c : text) n += c == '\n' ? 1 : 0;
  return n + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

constexpr bool is_separator(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether a decimal number that std::from_chars found out of range is tiny rather than huge: the
// power of ten of its leading digit, plus its exponent, is negative. ("1e-400" is then the
// nearest double, 0, as strtod and every other reader give it; "1e400" stays an error.)
bool underflows(std::string_view t) {
  std::size_t i = t.empty() || (t[0] != '-' && t[0] != '+') ? 0 : 1;
  long long power = 0;
  bool leading = false;
  for (; i < t.size() && is_digit(t[i]); ++i) {
    if (leading) ++power;
    else leading = t[i] != '0';
  }
  if (i < t.size() && t[i] == '.') {
    for (++i; i < t.size() && is_digit(t[i]); ++i)
      if (!leading) {
        --power;
        leading = t[i] != '0';
      }
  }
  long long exponent = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    std::size_t e = i + 1;
    if (e < t.size() && t[e] == '+') ++e;
    const auto [end, ec] = std::from_chars(t.data() + e, t.data() + t.size(), exponent);
    if (ec == std::errc::result_out_of_range) return e < t.size() && t[e] == '-';
  }
  return power + exponent < 0;
}

// Parses one line's values onto `out`; returns "" or why the line is malformed.
std::string parse_line(std::string_view line, std::vector<double>& out, int& count) {
  count = 0;
  const char* p = line.data();
  const char* end = p + line.size();
  while (true) {
    while (p < end && is_separator(*p)) ++p;
    if (p == end) return {};
    if (*p == '+') ++p;  // from_chars rejects a leading '+', which other writers emit
    double v = 0.0;
    auto [next, ec] = std::from_chars(p, end, v);
    if (ec == std::errc::result_out_of_range) {
      const std::string_view token(p, static_cast<std::size_t>(next - p));
      if (!underflows(token))
        return "value " + std::to_string(count + 1) + " '" + std::string(token) + "' is out of range (beyond +-1.8e308)";
      v = *p == '-' ? -0.0 : 0.0;
      ec = std::errc();
    }
    if (ec != std::errc() || (next < end && !is_separator(*next))) {
      const char* stop = p;
      while (stop < end && !is_separator(*stop)) ++stop;
      return "value " + std::to_string(count + 1) + " '" + std::string(p, stop) + "' is not a number";
    }
    if (!std::isfinite(v)) return "value " + std::to_string(count + 1) + " is not finite";
    out.push_back(v);
    ++count;
    p = next;
  }
}

// Whether a line holds a point (not blank, not a comment).
bool is_data_line(std::string_view line) {
  std::size_t first = 0;
  while (first < line.size() && is_separator(line[first])) ++first;
  return first < line.size() && line[first] != '#' && line[first] != '%';
}

// Calls f(line, index) for each line; stops when f returns false.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t pos = 0;
  long long index = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    if (!f(text.substr(pos, eol - pos), index++, eol + 1)) return;
    pos = eol + 1;
  }
}

}  // namespace

long long data_line_index(std::string_view text, long long k, long long header_line) {
  long long found = -1;
  for_each_line(text, [&](std::string_view line, long long index, std::size_t) {
    if (index != header_line && is_data_line(line) && k-- == 0) found = index;
    return found < 0;
  });
  return found;
}

std::string ColumnHeader::names() const {
  std::string s = dim == 2 ? "x y" : "x y z";
  return weighted ? s + " w" : s;
}

ColumnHeader parse_column_header(std::string_view line) {
  std::size_t p = 0;
  while (p < line.size() && is_separator(line[p])) ++p;
  if (p < line.size() && (line[p] == '#' || line[p] == '%')) ++p;
  // The names, lower-cased; anything but a one-letter name ends the match.
  std::string names;
  while (true) {
    while (p < line.size() && is_separator(line[p])) ++p;
    if (p == line.size()) break;
    const std::size_t start = p;
    while (p < line.size() && !is_separator(line[p])) ++p;
    if (p - start != 1 || names.size() == 4) return {};
    names.push_back(static_cast<char>(line[start] | 0x20));  // ASCII letters to lower case
  }
  if (names == "xy") return {2, 2, false};
  if (names == "xyw") return {3, 2, true};
  if (names == "xyz") return {3, 3, false};
  if (names == "xyzw") return {4, 3, true};
  return {};
}

long long first_record_line(std::string_view text) {
  long long found = -1;
  for_each_line(text, [&](std::string_view line, long long index, std::size_t) {
    if (is_data_line(line) || parse_column_header(line).columns > 0) found = index;
    return found < 0;
  });
  return found;
}

std::string_view point_line_at(std::string_view text, long long index) {
  std::string_view found;
  for_each_line(text, [&](std::string_view line, long long i, std::size_t) {
    if (i == index) found = line;
    return i < index;
  });
  return found;
}

PointLines parse_point_lines(std::string_view text, long long header_line) {
  PointLines r;
  for_each_line(text, [&](std::string_view line, long long index, std::size_t next) {
    r.lines = index + 1;
    if (index == header_line || !is_data_line(line)) return true;
    int count = 0;
    const std::size_t before = r.values.size();
    std::string reason = parse_line(line, r.values, count);
    if (reason.empty() && r.data_lines > 0 && count != r.columns) {
      reason = "has " + std::to_string(count) + " values, but the first point line has " + std::to_string(r.columns);
      r.bad_count = count;
    }
    if (!reason.empty()) {
      r.values.resize(before);
      r.bad_line = index;
      r.bad_reason = std::move(reason);
      // The caller numbers the next rank's lines after ours, so count the rest too.
      r.lines += count_lines(text.substr(std::min(next, text.size())));
      return false;
    }
    if (r.data_lines++ == 0) {
      r.columns = count;
      r.first_data_line = index;
    }
    return true;
  });
  return r;
}

}  // namespace hpart::detail
