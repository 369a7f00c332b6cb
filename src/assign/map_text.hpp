#pragma once
// The saved form of a PartitionMap: whitespace-separated words, one record per line, integers in
// decimal, curve keys in hexadecimal and coordinates as C99 hexadecimal floats ("%a"), so the
// text is exact and independent of byte order and locale. docs/assign.md lists the records.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace hpart::detail {

struct MapData;
std::string save_map(const MapData& d);
std::shared_ptr<const MapData> load_map(std::string_view text);  // validates; Error(io) when bad

class TextWriter {
 public:
  TextWriter& word(std::string_view w);
  TextWriter& integer(long long v);
  TextWriter& hex(std::uint64_t v);
  TextWriter& real(double v);
  TextWriter& end_line();
  [[nodiscard]] const std::string& text() const { return out_; }

 private:
  std::string out_;
  bool line_start_ = true;
};

// Every read names what it reads; a missing, malformed or out-of-range word throws
// hpart::Error(io) "PartitionMap::load: line L: <what> ...".
class TextReader {
 public:
  explicit TextReader(std::string_view text) : text_(text) {}
  std::string_view word(const char* what);
  void expect(std::string_view w);
  long long integer(const char* what, long long lo, long long hi);
  std::uint64_t hex(const char* what);
  double real(const char* what);  // finite
  [[nodiscard]] bool at_end();
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace hpart::detail
