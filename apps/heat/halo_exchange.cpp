#include "halo_exchange.hpp"

#include <mpi.h>

#include <string>

namespace hpart_heat {
namespace {
constexpr int kHaloTag = 101;
}

HaloExchange::HaloExchange(const hpart::Comm& comm, const std::vector<hpart::Box>& boxes,
                           const hpart::GridNeighbours& nb)
    : comm_(comm.get()) {
  // grid_neighbours counts exactly the cells B_q ∩ grown(B_p, 1) that part p receives from q.
  // Every rank checks every part's list (both are global), so a mismatch, which would mean we
  // read the API wrong, throws on every rank alike.
  for (std::size_t p = 0; p < nb.of_part.size(); ++p)
    for (const hpart::PartNeighbour& n : nb.of_part[p]) {
      const std::int64_t cells = boxes[static_cast<std::size_t>(n.part)].intersect(boxes[p].grown(1)).volume();
      if (cells != n.halo_cells)
        throw hpart::Error(hpart::ErrorCode::internal,
                           "halo of part " + std::to_string(p) + " from part " + std::to_string(n.part) + ": " +
                               std::to_string(cells) + " cells by the boxes, " + std::to_string(n.halo_cells) +
                               " by grid_neighbours");
    }
  const auto me = static_cast<std::size_t>(comm.rank());
  const hpart::Box& mine = boxes[me];
  for (const hpart::PartNeighbour& n : nb.of_part[me]) {
    const hpart::Box& theirs = boxes[static_cast<std::size_t>(n.part)];
    Peer peer;
    peer.rank = n.part;  // one part per rank: part q lives on rank q
    peer.recv = theirs.intersect(mine.grown(1));
    peer.send = mine.intersect(theirs.grown(1));  // = what q's list says q receives from us
    peer.send_buf.resize(static_cast<std::size_t>(peer.send.volume()));
    peer.recv_buf.resize(static_cast<std::size_t>(peer.recv.volume()));
    peers_.push_back(std::move(peer));
  }
  requests_.resize(2 * peers_.size());
}

void HaloExchange::run(HeatField& f) {
  // Post every receive first so no send waits for a matching receive to appear.
  for (std::size_t i = 0; i < peers_.size(); ++i)
    MPI_Irecv(peers_[i].recv_buf.data(), static_cast<int>(peers_[i].recv_buf.size()), MPI_DOUBLE, peers_[i].rank,
              kHaloTag, comm_, &requests_[i]);
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    Peer& p = peers_[i];
    f.pack(p.send, p.send_buf);
    MPI_Isend(p.send_buf.data(), static_cast<int>(p.send_buf.size()), MPI_DOUBLE, p.rank, kHaloTag, comm_,
              &requests_[peers_.size() + i]);
  }
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (Peer& p : peers_) f.unpack(p.recv, p.recv_buf);
}

}  // namespace hpart_heat
