// The graph picture: every rank draws its vertices and the edges of its vertices at their
// coordinates into pixel keys (picture_raster). The coordinates and parts of off-rank neighbours
// come from one ghost exchange; an edge between ranks is drawn by both ends from its lower to its
// higher vertex id, so both draw the same pixels and the MAX reduction onto rank 0 gives the same
// picture for any number of ranks. Layers (the key's top bits): cut edges under edges inside a
// part under vertices. The colouring's adjacency is the set of part pairs joined by a cut edge,
// gathered on rank 0 (each rank's distinct pairs).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/ghost_exchange.hpp"
#include "core/validate.hpp"
#include "hpart/graph.hpp"
#include "hpart/io.hpp"
#include "io/part_colouring.hpp"
#include "io/picture_canvas.hpp"
#include "io/picture_checks.hpp"
#include "io/picture_raster.hpp"

namespace hpart {
namespace {

enum Layer { kCutEdge = 1, kPartEdge = 2, kVertex = 3 };

// Every rank's distinct pairs of parts joined by a cut edge, on rank 0 (elsewhere: empty).
std::vector<detail::PartPair> gather_pairs(const Comm& comm, std::vector<detail::PartPair> mine) {
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  std::vector<part_t> flat;
  for (const auto& [a, b] : mine) flat.push_back(a), flat.push_back(b);
  const int count = static_cast<int>(flat.size());
  std::vector<int> counts(static_cast<std::size_t>(comm.size())), displs(counts.size(), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get());
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<part_t> all(comm.rank() == 0 ? static_cast<std::size_t>(displs.back() + counts.back()) : 0);
  MPI_Gatherv(flat.data(), count, MPI_INT32_T, all.data(), counts.data(), displs.data(), MPI_INT32_T, 0, comm.get());
  std::vector<detail::PartPair> out;
  for (std::size_t i = 0; i + 1 < all.size(); i += 2) out.emplace_back(all[i], all[i + 1]);
  return out;
}

}  // namespace

void write_graph_partition_png(const Comm& comm, const std::string& path, const Graph& graph, const PointSet& coords,
                               std::span<const part_t> parts, int num_parts, const PictureOptions& options) {
  validate_graph(comm, graph);  // the same error on every rank; the ghost exchange below needs a valid graph
  const std::size_t n = graph.local_vertices();
  std::string message = detail::check_point_shape(coords);
  if (message.empty() && coords.size() != n)
    message = "coords has " + std::to_string(coords.size()) + " points for " + std::to_string(n) + " local vertices";
  if (message.empty()) message = detail::check_points(coords);
  detail::agree_point_picture(comm, path, std::move(message), n, "local vertices", parts, num_parts, coords.dim, options,
                              "write_graph_partition_png");

  const detail::CoordView view(comm, coords.coords, coords.dim, options.max_side);
  const detail::Montage& m = view.montage();
  const auto d = static_cast<std::size_t>(coords.dim);
  // Where every local vertex and ghost lands, and the ghosts' parts.
  const graph::GhostExchange ghosts(comm, graph);
  std::vector<std::array<double, 3>> local_xyz(n, std::array<double, 3>{});
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t a = 0; a < d; ++a) local_xyz[v][a] = coords.coords[v * d + a];
  const auto ghost_xyz = ghosts.fetch<std::array<double, 3>>(local_xyz);
  const auto ghost_parts = ghosts.fetch<part_t>(parts);
  std::vector<detail::CoordView::Spot> spot(n + ghosts.ghosts());
  std::vector<part_t> part(n + ghosts.ghosts());
  std::vector<gid_t> gid(n + ghosts.ghosts());
  const gid_t lo = graph.vtxdist[static_cast<std::size_t>(comm.rank())];
  for (std::size_t v = 0; v < spot.size(); ++v) {
    const bool local = v < n;
    spot[v] = view.locate(local ? local_xyz[v].data() : ghost_xyz[v - n].data());
    part[v] = local ? parts[v] : ghost_parts[v - n];
    gid[v] = local ? lo + static_cast<gid_t>(v) : ghosts.ghost_ids()[v - n];
  }

  long long local = static_cast<long long>(n), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  // Vertices as dots where the graph is sparse on the picture, single pixels where it is dense.
  const double share = static_cast<double>(m.panel_width()) * m.panel_height() * view.slabs() / static_cast<double>(std::max(total, 1LL));
  const int radius = std::clamp(static_cast<int>(std::sqrt(share) / 6.0), 0, 3);
  detail::KeyBuffer keys(m.width(), m.height());
  std::vector<detail::PartPair> cut_pairs;
  const auto& nbr = ghosts.local_adjncy();
  for (std::size_t u = 0; u < n; ++u) {
    for (auto e = static_cast<std::size_t>(graph.xadj[u]); e < static_cast<std::size_t>(graph.xadj[u + 1]); ++e) {
      const auto v = static_cast<std::size_t>(nbr[e]);
      if (v < n && v < u) continue;  // a local edge once; an edge to a ghost by both its ranks
      const bool cut = part[u] != part[v];
      if (cut) cut_pairs.emplace_back(std::min(part[u], part[v]), std::max(part[u], part[v]));
      const auto& a = gid[u] < gid[v] ? spot[u] : spot[v];
      const auto& b = gid[u] < gid[v] ? spot[v] : spot[u];
      if (a.slab != b.slab) continue;  // 3D: an edge between slabs is in neither section
      keys.line(a.x, a.y, b.x, b.y,
                detail::pixel_key(cut ? kCutEdge : kPartEdge, std::min(a.closeness, b.closeness), cut ? -1 : part[u]));
    }
    keys.dot(spot[u].x, spot[u].y, radius, detail::pixel_key(kVertex, spot[u].closeness, part[u]));
  }
  keys.reduce_to_root(comm);
  const auto pairs = gather_pairs(comm, std::move(cut_pairs));
  message.clear();
  if (comm.rank() == 0) {
    const auto colours = detail::part_colours(num_parts, pairs);
    detail::Drawing drawing(m.width(), m.height());
    for (std::size_t k = 0; k < keys.keys().size(); ++k) {
      const detail::PixelKey key = keys.keys()[k];
      const int layer = detail::key_layer(key);
      if (key == 0) continue;
      if (layer == kCutEdge) drawing.at(k) = detail::Rgb{110, 110, 110};
      else {
        const detail::Rgb c = colours[static_cast<std::size_t>(detail::key_part(key))];
        drawing.at(k) = layer == kVertex ? detail::darker(c, 0.8) : c;
      }
    }
    drawing.labels = view.labels();
    message = detail::write_picture(path, drawing, options, colours);
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

}  // namespace hpart
