#include "bench_record.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace hpart_bench {
namespace {

std::string count(const std::optional<long long>& v) { return v ? std::to_string(*v) : "-"; }

std::string fixed(const std::optional<double>& v, const char* format) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, *v);
  return buf;
}

}  // namespace

nlohmann::ordered_json Record::to_json() const {
  nlohmann::ordered_json j;
  j["suite"] = suite;
  j["case"] = case_name;
  j["library"] = library;
  j["method"] = method;
  j["n"] = n;
  j["parts"] = parts;
  j["ranks"] = ranks;
  j["threads"] = threads;
  j["reps"] = reps;
  j["time_s"] = time_s;
  if (cold_s) j["cold_s"] = *cold_s;
  if (warm_s) j["warm_s"] = *warm_s;
  if (imbalance) j["imbalance"] = *imbalance;
  if (peak_rss_mb) j["peak_rss_mb"] = *peak_rss_mb;
  if (rss_growth_mb) j["rss_growth_mb"] = *rss_growth_mb;
  if (input_mb) j["input_mb"] = *input_mb;
  if (w_max_over_avg) j["w_max_over_avg"] = *w_max_over_avg;
  if (edge_cut) j["edge_cut"] = *edge_cut;
  if (comm_volume) j["comm_volume"] = *comm_volume;
  if (internode_volume) j["internode_volume"] = *internode_volume;
  if (layer_bound) j["layer_bound"] = *layer_bound;
  if (migrated) j["migrated"] = *migrated;
  if (migration_lower_bound) j["migration_lower_bound"] = *migration_lower_bound;
  if (events) j["events"] = *events;
  if (bytes) j["bytes"] = *bytes;
  if (error) j["error"] = *error;
  return j;
}

RecordSink::RecordSink(int rank, const std::string& path) : rank_(rank) {
  if (rank_ != 0 || path.empty()) return;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) open_error_ = "cannot open --json file '" + path + "' for writing: " + std::strerror(errno);
}

RecordSink::~RecordSink() {
  if (file_) std::fclose(file_);
}

void RecordSink::add(const Record& r) {
  if (rank_ != 0) return;
  records_.push_back(r);
  if (file_) {
    const std::string line = r.to_json().dump() + "\n";
    std::fputs(line.c_str(), file_);
    std::fflush(file_);
  }
}

void RecordSink::print_table(std::FILE* out) const {
  if (rank_ != 0 || records_.empty()) return;
  const std::vector<std::string> head = {"case", "library", "method", "n", "parts", "ranks", "threads",
                                         "time_s", "cold_s", "warm_s", "imbalance", "peak_rss_mb", "rss_growth_mb", "input_mb",
                                         "w_max_over_avg", "edge_cut", "comm_volume", "internode_volume", "layer_bound"};
  std::vector<std::vector<std::string>> rows;
  for (const Record& r : records_)
    rows.push_back({r.case_name, r.library, r.method, std::to_string(r.n), std::to_string(r.parts),
                    std::to_string(r.ranks), std::to_string(r.threads), fixed(r.time_s, "%.4f"),
                    fixed(r.cold_s, "%.4f"), fixed(r.warm_s, "%.4f"), fixed(r.imbalance, "%.2e"), fixed(r.peak_rss_mb, "%.1f"), fixed(r.rss_growth_mb, "%.1f"),
                    fixed(r.input_mb, "%.1f"), fixed(r.w_max_over_avg, "%.2f"), count(r.edge_cut), count(r.comm_volume),
                    count(r.internode_volume), fixed(r.layer_bound, "%.2e")});
  // Columns no record fills are left out (points records have no volumes, grid ones no floor).
  std::vector<bool> used(head.size(), false);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) used[c] = used[c] || row[c] != "-";
  std::vector<std::string> shown_head;
  for (std::size_t c = 0; c < head.size(); ++c)
    if (used[c] || c < 8) shown_head.push_back(head[c]);
  for (auto& row : rows) {
    std::vector<std::string> shown;
    for (std::size_t c = 0; c < row.size(); ++c)
      if (used[c] || c < 8) shown.push_back(row[c]);
    row.swap(shown);
  }
  const std::vector<std::string>& cols = shown_head;
  std::vector<std::size_t> width(cols.size());
  for (std::size_t c = 0; c < cols.size(); ++c) {
    width[c] = cols[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  const auto print_row = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      const int w = static_cast<int>(width[c]);
      // Text columns left-aligned, numbers right-aligned.
      if (c < 3)
        std::fprintf(out, "%-*s", w, row[c].c_str());
      else
        std::fprintf(out, "%*s", w, row[c].c_str());
      std::fputs(c + 1 < row.size() ? "  " : "\n", out);
    }
  };
  print_row(cols);
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  std::fprintf(out, "%s\n", std::string(total - 2, '-').c_str());
  for (const auto& row : rows) print_row(row);
  std::fflush(out);
}

}  // namespace hpart_bench
