#include "cli_options.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

#include "hpart/version.hpp"

namespace hpart_cli {

void add_run_options(CLI::App& cmd, RunArgs& a) {
  cmd.add_option("-t,--threads", a.threads,
                 "OpenMP threads per rank (default: the cores available to the rank: its binding, or the node's "
                 "cores shared by the ranks on it; OMP_NUM_THREADS overrides the default)")
      ->check(CLI::Range(1, 4096));
  cmd.add_option("--json", a.json, "append one record per result to FILE (JSON Lines, the fields of BENCH.md)");
  cmd.add_flag("--strict", a.strict, "exit with status 4 when the partition misses its tolerance (default: a warning)");
  cmd.add_flag("-q,--quiet", a.quiet, "print nothing on success");
}

void add_input_options(CLI::App& cmd, std::string& kind, std::string& format, int& dim) {
  cmd.add_option("--kind", kind, "what FILE holds when its name and content do not tell: points, h5 or graph")
      ->check(CLI::IsMember({"points", "h5", "graph"}));
  cmd.add_option("--format", format, "graphs: metis, chaco or mm (default: MatrixMarket by its banner or .mtx, else metis)")
      ->check(CLI::IsMember({"metis", "chaco", "mm"}));
  cmd.add_option("--dim", dim,
                 "points: 2 or 3 (default, or 0: from the file's header line '# x y w', else its columns: 2 = x y, "
                 "4 = x y z w; 3 columns are x y z or x y w, so such a file needs a header or --dim)")
      ->check(CLI::IsMember({0, 2, 3}));
}

void add_balance_options(CLI::App& cmd, BalanceArgs& a, const std::string& default_text) {
  cmd.add_option("-e,--imbalance", a.imbalance,
                 "allowed imbalance: 0.03 or 1.03 both mean max part <= 1.03 x average (values >= 1 are ratios as in "
                 "METIS/Zoltan, below 1 fractions as in KaMinPar; " + default_text + ")")
      ->check(CLI::Range(0.0, 2.0));
  cmd.add_option("--ufactor", a.ufactor, "METIS's form of the same: tolerance = UFACTOR / 1000 (gpmetis -ufactor=30)")
      ->check(CLI::Range(0, 1000))->excludes("--imbalance");
}

std::string threads_phrase(const RunArgs& a) {
  const auto colon = a.threads_why.find(": ");
  if (colon == std::string::npos) return a.threads_why;
  return a.threads_why.substr(0, colon) + " (" + a.threads_why.substr(colon + 2) + ")";
}

double tolerance(const BalanceArgs& a, double default_tolerance) {
  if (a.ufactor >= 0) return a.ufactor / 1000.0;
  if (a.imbalance < 0) return default_tolerance;
  return a.imbalance >= 1.0 ? a.imbalance - 1.0 : a.imbalance;
}

std::string describe_tolerance(double tol) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "max part <= %.4g x average (tolerance %.4g)", 1.0 + tol, tol);
  return buf;
}

std::vector<std::string> conventional_argv(int argc, char** argv) {
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    for (const char* name : {"ufactor", "seed"}) {
      const std::string single = std::string("-") + name + "=";
      if (arg.rfind(single, 0) == 0) arg = "-" + arg;  // -ufactor=30 -> --ufactor=30
    }
    out.push_back(std::move(arg));
  }
  return out;
}

void check_writable(const hpart::Comm& comm, const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string message;
  if (comm.rank() == 0) {
    for (const auto& [path, what] : outputs) {
      if (path.empty()) continue;
      struct stat st {};
      const bool existed = ::stat(path.c_str(), &st) == 0;
      if (existed && S_ISDIR(st.st_mode)) {
        message = "cannot write " + what + " '" + path + "': it is a directory";
        break;
      }
      // Open for appending: an existing file keeps its contents until the real write.
      std::FILE* f = std::fopen(path.c_str(), "a");
      if (f == nullptr) {
        message = "cannot write " + what + " '" + path + "': " + std::strerror(errno);
        break;
      }
      std::fclose(f);
      if (!existed) ::unlink(path.c_str());
    }
  }
  comm.agree(message.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, message);
}

void reject_option(const CLI::App& cmd, const std::string& option, const std::string& kind, const std::string& file,
                   const std::string& applies_to) {
  if (cmd.count(option) == 0) return;
  throw UsageError(option + " does not apply to " + kind + " '" + file + "' (it is for " + applies_to + ")");
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string extent_text(const hpart::Grid& grid) {
  std::string text = std::to_string(grid.extent[0]);
  for (int d = 1; d < grid.dim; ++d) text += "x" + std::to_string(grid.extent[static_cast<std::size_t>(d)]);
  return text;
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string default_part_path(const std::string& input, int parts) { return input + ".part." + std::to_string(parts); }

bool is_hdf5_path(const std::string& path) {
  const auto ends_with = [&](const std::string& ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  return ends_with(".h5") || ends_with(".hdf5");
}

void require_output_features(const std::string& out, const std::string& png) {
  const hpart::Features have = hpart::features();
  const auto without = [](const char* dep, const std::string& what) {
    throw hpart::Error(hpart::ErrorCode::unsupported, std::string("hpart was built without ") + dep + ": " + what +
                                                          " needs it; reconfigure with -DHPART_WITH_" + dep + "=ON");
  };
  if (!out.empty() && is_hdf5_path(out) && !have.hdf5) without("HDF5", "--out " + out);
  if (!png.empty() && !have.png) without("PNG", "--png");
}

}  // namespace hpart_cli
