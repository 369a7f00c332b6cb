#include "core/memory_budget.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace hpart::detail {
namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// "12G", "512M", "1048576": bytes, or kUnknown for something else.
std::uint64_t parse_bytes(const char* text) {
  if (!text || !*text) return kUnknown;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || !(v > 0)) return kUnknown;
  double scale = 1;
  switch (std::toupper(static_cast<unsigned char>(*end))) {
    case 'K': scale = 1024.0; break;
    case 'M': scale = 1024.0 * 1024; break;
    case 'G': scale = 1024.0 * 1024 * 1024; break;
    case 'T': scale = 1024.0 * 1024 * 1024 * 1024; break;
    default: break;
  }
  const double bytes = v * scale;
  return bytes >= 1.8e19 ? kUnknown : static_cast<std::uint64_t>(bytes);
}

std::uint64_t meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : kUnknown;
}

// A cgroup v2 (or v1) memory limit less what the group uses: containers often have less than
// the host's MemAvailable says.
std::uint64_t cgroup_available() {
  auto read_number = [](const char* path) {
    std::ifstream in(path);
    std::string s;
    if (!(in >> s) || s == "max") return kUnknown;
    return parse_bytes(s.c_str());
  };
  std::uint64_t limit = read_number("/sys/fs/cgroup/memory.max");
  std::uint64_t used = read_number("/sys/fs/cgroup/memory.current");
  if (limit == kUnknown) {
    limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    used = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  if (limit == kUnknown || limit >= (1ULL << 60)) return kUnknown;
  return used != kUnknown && used < limit ? limit - used : limit;
}

int ranks_on_node() {
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"})
    if (const char* v = std::getenv(var)) {
      const int n = std::atoi(v);
      if (n > 0) return n;
    }
  return 1;
}

}  // namespace

std::uint64_t memory_budget_bytes() {
  if (const std::uint64_t limit = parse_bytes(std::getenv("HPART_MEMORY_LIMIT")); limit != kUnknown) return limit;
  std::uint64_t avail = meminfo_available();
  const std::uint64_t group = cgroup_available();
  if (group < avail) avail = group;
  if (avail == kUnknown) return kUnknown;
  return avail / static_cast<std::uint64_t>(ranks_on_node());
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) bytes /= 1024.0, ++u;
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return buf;
}

std::string check_memory(double bytes, const std::string& what, const std::string& advice) {
  const std::uint64_t budget = memory_budget_bytes();
  if (budget == kUnknown || bytes <= static_cast<double>(budget)) return {};
  return what + " needs " + format_bytes(bytes) + " on this rank, more than the " +
         format_bytes(static_cast<double>(budget)) + " it may use (HPART_MEMORY_LIMIT, or the node's available " +
         "memory shared by its ranks): " + advice;
}

}  // namespace hpart::detail
