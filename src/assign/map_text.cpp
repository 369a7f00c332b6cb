// PartitionMap::save / load: the versioned text form (map_text.hpp; docs/assign.md).
#include "assign/map_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "assign/grid_map.hpp"
#include "assign/map_data.hpp"

namespace hpart::detail {

TextWriter& TextWriter::word(std::string_view w) {
  if (!line_start_) out_ += ' ';
  out_ += w;
  line_start_ = false;
  return *this;
}
TextWriter& TextWriter::integer(long long v) { return word(std::to_string(v)); }
TextWriter& TextWriter::hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return word(buf);
}
TextWriter& TextWriter::real(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return word(buf);
}
TextWriter& TextWriter::end_line() {
  out_ += '\n';
  line_start_ = true;
  return *this;
}

void TextReader::fail(const std::string& message) const {
  throw Error(ErrorCode::io, "hpart::PartitionMap::load: line " + std::to_string(line_) + ": " + message);
}

bool TextReader::at_end() {
  while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) line_ += text_[pos_++] == '\n';
  return pos_ >= text_.size();
}

std::string_view TextReader::word(const char* what) {
  if (at_end()) fail(std::string("the text ends where ") + what + " was expected (truncated?)");
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  return text_.substr(start, pos_ - start);
}

void TextReader::expect(std::string_view w) {
  const std::string_view got = word(std::string(w).c_str());
  if (got != w) fail("expected '" + std::string(w) + "', found '" + std::string(got) + "'");
}

long long TextReader::integer(const char* what, long long lo, long long hi) {
  const std::string w(word(what));
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(w.c_str(), &end, 10);
  if (end != w.c_str() + w.size() || w.empty() || errno == ERANGE)
    fail(std::string(what) + ": '" + w + "' is not an integer");
  if (v < lo || v > hi)
    fail(std::string(what) + " " + w + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

std::uint64_t TextReader::hex(const char* what) {
  const std::string w(word(what));
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(w.c_str(), &end, 16);
  if (end != w.c_str() + w.size() || w.empty() || w[0] == '-' || w[0] == '+' || errno == ERANGE)
    fail(std::string(what) + ": '" + w + "' is not a hexadecimal key");
  return v;
}

double TextReader::real(const char* what) {
  const std::string w(word(what));
  char* end = nullptr;
  const double v = std::strtod(w.c_str(), &end);
  if (end != w.c_str() + w.size() || w.empty() || !std::isfinite(v))
    fail(std::string(what) + ": '" + w + "' is not a finite number");
  return v;
}

namespace {

constexpr const char* kMagic = "hpart-partition-map";
constexpr long long kVersion = 1;

void write_level(TextWriter& w, const CurveLevel& l) {
  w.word("level").word(to_string(l.curve));
  for (int a = 0; a < 3; ++a) w.real(l.box.lo[static_cast<std::size_t>(a)]);
  for (int a = 0; a < 3; ++a) w.real(l.box.hi[static_cast<std::size_t>(a)]);
  w.integer(static_cast<long long>(l.labels.size())).end_line();
  for (std::size_t r = 0; r < l.labels.size(); ++r) w.hex(l.start_keys[r]).integer(l.start_ids[r]).integer(l.labels[r]).end_line();
}

CurveLevel read_level(TextReader& r, int dim, int labels) {
  CurveLevel l;
  l.dim = dim;
  r.expect("level");
  const std::string_view curve = r.word("curve");
  if (curve != "hilbert" && curve != "morton") r.fail("unknown curve '" + std::string(curve) + "'");
  l.curve = curve == "hilbert" ? Curve::hilbert : Curve::morton;
  for (int a = 0; a < 3; ++a) l.box.lo[static_cast<std::size_t>(a)] = r.real("box lo");
  for (int a = 0; a < 3; ++a) {
    l.box.hi[static_cast<std::size_t>(a)] = r.real("box hi");
    if (l.box.hi[static_cast<std::size_t>(a)] < l.box.lo[static_cast<std::size_t>(a)]) r.fail("box hi < lo");
  }
  const long long m = r.integer("ranges", 1, labels);
  for (long long i = 0; i < m; ++i) {
    l.start_keys.push_back(r.hex("range start key"));
    l.start_ids.push_back(r.integer("range start id", 0, std::numeric_limits<gid_t>::max()));
    l.labels.push_back(static_cast<int>(r.integer("range label", 0, labels - 1)));
    const auto j = static_cast<std::size_t>(i);
    if (i == 0 && (l.start_keys[0] != 0 || l.start_ids[0] != 0)) r.fail("the first range must start at key 0, id 0");
    if (i > 0 && !(l.start_keys[j - 1] < l.start_keys[j] || (l.start_keys[j - 1] == l.start_keys[j] && l.start_ids[j - 1] < l.start_ids[j])))
      r.fail("range starts out of order");
  }
  l.finish();
  return l;
}

}  // namespace

std::string save_map(const MapData& d) {
  TextWriter w;
  w.word(kMagic).integer(kVersion).end_line();
  w.word("kind").word(to_string(d.kind)).end_line();
  w.word("dim").integer(d.dim).end_line();
  w.word("parts").integer(d.parts).end_line();
  w.word("ranks").integer(d.ranks).end_line();
  w.word("owners").integer(static_cast<long long>(d.owners.size()));
  for (const int o : d.owners) w.integer(o);
  w.end_line();
  if (d.kind == MapKind::grid) {
    w.word("extent").integer(d.extent[0]).integer(d.extent[1]).integer(d.extent[2]).end_line();
    write_locator(w, d.locator.get(), d.parts);
  } else {
    if (d.kind == MapKind::hierarchical_points) w.word("nodes").integer(static_cast<long long>(d.nodes.size())).end_line();
    write_level(w, d.top);
    for (const CurveLevel& n : d.nodes) write_level(w, n);
  }
  w.word("end").end_line();
  return w.text();
}

std::shared_ptr<const MapData> load_map(std::string_view text) {
  TextReader r(text);
  r.expect(kMagic);
  const long long version = r.integer("version", 0, std::numeric_limits<long long>::max());
  if (version != kVersion)
    r.fail("version " + std::to_string(version) + " is not supported (this hpart reads version " + std::to_string(kVersion) + ")");
  auto d = std::make_shared<MapData>();
  r.expect("kind");
  const std::string_view kind = r.word("kind");
  if (kind == "points") d->kind = MapKind::points;
  else if (kind == "grid") d->kind = MapKind::grid;
  else if (kind == "hierarchical_points") d->kind = MapKind::hierarchical_points;
  else r.fail("unknown kind '" + std::string(kind) + "'");
  r.expect("dim");
  d->dim = static_cast<int>(r.integer("dim", 2, 3));
  r.expect("parts");
  d->parts = static_cast<int>(r.integer("parts", 1, std::numeric_limits<int>::max()));
  r.expect("ranks");
  d->ranks = static_cast<int>(r.integer("ranks", 1, std::numeric_limits<int>::max()));
  r.expect("owners");
  const long long no = r.integer("owner count", 0, d->parts);
  if (no != 0 && no != d->parts) r.fail("owners lists " + std::to_string(no) + " ranks for " + std::to_string(d->parts) + " parts");
  for (long long p = 0; p < no; ++p) d->owners.push_back(static_cast<int>(r.integer("owner", 0, d->ranks - 1)));
  if (d->kind == MapKind::grid) {
    r.expect("extent");
    for (int a = 0; a < 3; ++a) d->extent[static_cast<std::size_t>(a)] = r.integer("extent", 1, a < d->dim ? (1LL << 31) : 1);
    d->locator = read_locator(r, d->dim, d->parts, d->extent);
  } else if (d->kind == MapKind::points) {
    d->top = read_level(r, d->dim, d->parts);
  } else {
    r.expect("nodes");
    const long long nodes = r.integer("nodes", 1, d->parts);
    d->top = read_level(r, d->dim, static_cast<int>(nodes));
    for (long long n = 0; n < nodes; ++n) d->nodes.push_back(read_level(r, d->dim, d->parts));
  }
  r.expect("end");
  if (!r.at_end()) r.fail("text after 'end'");
  return d;
}

}  // namespace hpart::detail

namespace hpart {

std::string PartitionMap::save() const { return detail::save_map(data()); }

PartitionMap PartitionMap::load(std::string_view text) { return PartitionMap(detail::load_map(text)); }

void PartitionMap::save_file(const std::string& path) const {
  const std::string text = save();
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error(ErrorCode::io, "hpart::PartitionMap::save_file: cannot write '" + path + "'");
}

PartitionMap PartitionMap::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "hpart::PartitionMap::load_file: cannot open '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return load(s.str());
}

}  // namespace hpart
