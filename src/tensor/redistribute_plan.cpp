// The redistribution plan: intersections of this rank's boxes with every peer's, from the
// layouts alone (each rank knows every box).
#include <string>

#include "hpart/tensor/redistribute.hpp"
#include "core/memory_budget.hpp"
#include "tensor/layout_data.hpp"

namespace hpart::tensor {

RedistributePlan make_redistribute_plan(const ShardLayout& from, const ShardLayout& to, double bytes_per_element) {
  std::string problem;
  if (!from.valid() || !to.valid()) throw Error(ErrorCode::invalid_argument, "redistribute: a layout is not set");
  if (from.size() != to.size() || from.rank() != to.rank())
    problem = "redistribute: the layouts live on communicators of different sizes or rank orders";
  else if (!(from.shape() == to.shape()))
    problem = "redistribute: the layouts are of different tensors: " + from.shape().str() + " and " + to.shape().str();

  // The plan needs no communication: every rank knows every box.
  RedistributePlan plan;
  if (problem.empty()) {
    const int me = from.rank(), P = from.size();
    const Box& mine_from = from.local_box();
    const Box& mine_to = to.local_box();
    if (from.is_primary(me) && !mine_from.empty())
      for (int q = 0; q < P; ++q) {
        const Box b = mine_from.intersect(to.box(q));
        if (b.empty()) continue;
        plan.sends.push_back({q, b});
        if (q != me) plan.send_elements += b.volume();
      }
    if (!mine_to.empty())
      for (int p = 0; p < P; ++p) {
        if (!from.is_primary(p)) continue;
        const Box b = from.box(p).intersect(mine_to);
        if (b.empty()) continue;
        plan.receives.push_back({p, b});
        if (p != me) plan.receive_elements += b.volume();
      }
    // Each call packs what it sends and receives into buffers of their own: a gather to one rank
    // needs the whole tensor's size there, on top of the target tensor.
    problem = hpart::detail::check_memory(
        static_cast<double>(plan.send_elements + plan.receive_elements) * bytes_per_element,
        "redistribute: buffering the pieces this rank sends and receives",
        "gather to a rank with more memory, or redistribute in parts (smaller tensors)");
  }
  from.comm().agree(problem.empty() ? ErrorCode::ok : ErrorCode::size_mismatch, problem);
  return plan;
}

}  // namespace hpart::tensor
