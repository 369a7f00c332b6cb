#pragma once
// The halo exchange of one partition: with every neighbour part that hpart::grid_neighbours
// lists (faces, edges and corners; parts = ranks), send the owned cells in its width-1 halo and
// receive its cells in ours, as packed buffers with MPI_Isend/MPI_Irecv. Built once per
// partition, run before every step.
#include <cstdint>
#include <vector>

#include "heat_field.hpp"
#include "hpart/comm.hpp"
#include "hpart/grid.hpp"

namespace hpart_heat {

class HaloExchange {
 public:
  HaloExchange() = default;
  // boxes[r]: rank r's box (part r); throws hpart::Error(internal) if the neighbour list's halo
  // counts disagree with the boxes (the same on every rank: both are global).
  HaloExchange(const hpart::Comm& comm, const std::vector<hpart::Box>& boxes, const hpart::GridNeighbours& nb);

  // Fills f's ghosts from the neighbours (collective over the neighbours).
  void run(HeatField& f);

  [[nodiscard]] std::size_t peers() const { return peers_.size(); }

 private:
  struct Peer {
    int rank = 0;
    hpart::Box send, recv;  // our cells in its halo; its cells in ours
    std::vector<double> send_buf, recv_buf;
  };
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<Peer> peers_;
  std::vector<MPI_Request> requests_;
};

}  // namespace hpart_heat
