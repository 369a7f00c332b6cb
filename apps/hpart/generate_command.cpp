// `hpart generate`: write a deterministic point set (the same file for any number of ranks).
#include <cstdio>

#include "commands.hpp"
#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"
#include "point_generators.hpp"

namespace hpart_cli {

int run_generate(const hpart::Comm& comm, const GenerateArgs& args) {
  hpart_apps::PointCase c{};
  if (!hpart_apps::point_case_from_string(args.shape, c))
    throw hpart::Error(hpart::ErrorCode::invalid_argument, "unknown --shape '" + args.shape +
                                                               "' (available: " + hpart_apps::point_case_names() + ")");
  if (args.n < 1) throw hpart::Error(hpart::ErrorCode::invalid_argument, "--n must be >= 1");
  const hpart_apps::LocalPoints pts = hpart_apps::generate_points(c, args.n, comm.rank(), comm.size(), args.seed);
  const hpart::PointSet view{.coords = pts.coords, .dim = pts.dim, .weights = pts.weights, .ncon = 1, .ids = pts.ids};
  if (is_hdf5_path(args.out)) {
    // Ids are the row numbers, which read_points_h5 assumes without an /ids dataset.
    hpart::PointSet rows = view;
    rows.ids = {};
    hpart::write_points_h5(comm, args.out, rows);
    if (comm.rank() == 0 && !args.quiet)
      std::printf("wrote %s: %lld %dD points (%s), datasets: /points (%lld x %d)%s; and %s\n", args.out.c_str(), args.n,
                  pts.dim, args.shape.c_str(), args.n, pts.dim, pts.weights.empty() ? "" : ", /weights",
                  hpart::xdmf_path(args.out).c_str());
    return 0;
  }
  hpart::write_points_text(comm, args.out, view);
  if (comm.rank() == 0 && !args.quiet)
    std::printf("wrote %s: %lld %dD points (%s), columns: %s\n", args.out.c_str(), args.n, pts.dim, args.shape.c_str(),
                pts.weights.empty() ? (pts.dim == 2 ? "x y" : "x y z") : (pts.dim == 2 ? "x y w" : "x y z w"));
  return 0;
}

}  // namespace hpart_cli
