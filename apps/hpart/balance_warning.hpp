#pragma once
// A partition that misses the tolerance it was asked for says so: on stderr (rank 0), with the
// reason where the input alone explains it (an object heavier than a part's share, more parts than
// objects), so an unmet balance is never silent.
#include "hpart/comm.hpp"
#include "hpart/partition.hpp"

namespace hpart_cli {

// Collective (sums the first-constraint weights over the ranks). heaviest / total: this rank's
// largest and summed first weight. prog: the subcommand, for the message prefix. Returns whether
// the partition met its tolerance (the same on every rank: the metrics are global).
bool warn_if_unbalanced(const hpart::Comm& comm, const hpart::Partition& p, double heaviest, double total,
                        const char* prog);

}  // namespace hpart_cli
