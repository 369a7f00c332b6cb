#include "io/picture_checks.hpp"

#include "core/features.hpp"
#include "core/memory_budget.hpp"
#include "core/validate.hpp"
#include "hpart/version.hpp"  // HPART_HAVE_PNG
#include "metrics/part_ids.hpp"

namespace hpart::detail {

std::string check_picture(const PictureOptions& options, int num_parts, double bytes_per_pixel) {
  const int side = options.max_side;
  if (side < 16 || side > 8192) return "max_side must be in [16, 8192] (got " + std::to_string(side) + ")";
  if (!options.node_of_part.empty()) {
    if (options.node_of_part.size() != static_cast<std::size_t>(num_parts))
      return "node_of_part has " + std::to_string(options.node_of_part.size()) + " values for " +
             std::to_string(num_parts) + " parts";
    for (std::size_t p = 0; p < options.node_of_part.size(); ++p)
      if (options.node_of_part[p] < 0)
        return "node_of_part[" + std::to_string(p) + "] is " + std::to_string(options.node_of_part[p]) + " (must be >= 0)";
  }
  return check_memory(static_cast<double>(side) * side * bytes_per_pixel,
                      "a picture of " + std::to_string(side) + " pixels a side", "use a smaller max_side");
}

void agree_picture(const Comm& comm, Replicated& args, const PictureOptions& options, const char* function,
                   std::string problem) {
  std::string legend;
  for (const std::string& line : options.legend) legend += line + '\n';
  args.value("max_side", static_cast<long long>(options.max_side))
      .text("title", options.title)
      .text("legend", legend)
      .values("node_of_part", options.node_of_part);
  // A missing PNG is its own code (unsupported); a bad argument found first wins.
  ErrorCode code = ErrorCode::invalid_argument;
  if (problem.empty() && !HPART_HAVE_PNG) problem = built_without("PNG", function), code = ErrorCode::unsupported;
  else if (!problem.empty()) problem = std::string(function) + ": " + problem;
  agree(comm, args, problem.empty() ? ErrorCode::ok : code, problem);
}

void agree_point_picture(const Comm& comm, const std::string& path, std::string problem, std::size_t count,
                         const char* objects, std::span<const part_t> parts, int num_parts, int dim,
                         const PictureOptions& options, const char* function) {
  if (problem.empty() && parts.size() != count)
    problem = std::to_string(parts.size()) + " part ids for " + std::to_string(count) + " " + objects;
  if (problem.empty()) problem = check_parts(num_parts);
  if (problem.empty()) problem = check_part_ids(parts, num_parts);
  if (problem.empty()) problem = check_picture(options, num_parts, comm.rank() == 0 ? 20.0 : 8.0);
  Replicated args;
  args.text("file path", path).value("num_parts", static_cast<long long>(num_parts)).value("dim", static_cast<long long>(dim));
  agree_picture(comm, args, options, function, std::move(problem));
}

}  // namespace hpart::detail
