#include "io/part_lines.hpp"

#include <climits>
#include <cstdint>

#include "io/text_tokens.hpp"

namespace hpart::detail {

namespace {

// "" or why the line is not a part id; the id in `part`.
std::string parse_entry(std::string_view line, int num_parts, part_t& part) {
  TokenCursor tokens(line);
  std::string_view token, extra;
  (void)tokens.next(token);  // the caller passes lines that hold a token
  if (tokens.next(extra))
    return "holds more than one value (" + quote_token(extra) + " after " + quote_token(token) +
           "); a part file has one part id per line";
  std::int64_t id = 0;
  if (std::string why = parse_integer(token, id); !why.empty()) return "part id " + why;
  if (id < 0) return "part id " + std::to_string(id) + " is negative; part ids are >= 0";
  if (id > INT_MAX) return "part id " + std::to_string(id) + " is beyond 2^31 - 1";
  if (num_parts > 0 && id >= num_parts)
    return "part id " + std::to_string(id) + " is not below the number of parts, " + std::to_string(num_parts);
  part = static_cast<part_t>(id);
  return {};
}

}  // namespace

PartLines parse_part_lines(std::string_view text, int num_parts) {
  PartLines r;
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line)) {
    if (r.bad_line >= 0) continue;  // count the rest of the lines only
    std::size_t first = 0;
    while (first < line.size() && is_blank(line[first])) ++first;
    if (first == line.size() || line[first] == '#' || line[first] == '%') continue;
    part_t part = 0;
    std::string why = parse_entry(line, num_parts, part);
    if (!why.empty()) {
      r.bad_line = cursor.index();
      r.bad_reason = std::move(why);
      continue;
    }
    r.values.push_back(part);
  }
  r.lines = cursor.index() + 1;
  return r;
}

}  // namespace hpart::detail
