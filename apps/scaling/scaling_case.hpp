#pragma once
// One measured call of the scaling suite: a case (what is partitioned, exchanged or computed)
// and the method that does it, set up untimed for one rank count, then called once per round.
// Every case's call() is collective and deterministic for a given rank count: the figures it
// reports (parts checksum, imbalance, cut, migrated) and the messages it sends are the same in
// every round and every run of the same build, which is what lets the suite compare them exactly.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "scaling_sizes.hpp"

namespace hpart_scaling {

// The quality figures of the last call (untimed to compute); absent where they do not apply.
struct Figures {
  std::optional<double> imbalance;
  std::optional<long long> edge_cut;
  std::optional<double> migrated;       // weight moved (repartition cases)
  std::optional<std::uint64_t> checksum;  // order-free hash of the result (parts_checksum.hpp)
};

class ScalingCase {
 public:
  ScalingCase(std::string case_name, std::string method, long long n, int parts)
      : case_name_(std::move(case_name)), method_(std::move(method)), n_(n), parts_(parts) {}
  virtual ~ScalingCase() = default;
  ScalingCase(const ScalingCase&) = delete;
  ScalingCase& operator=(const ScalingCase&) = delete;

  // Untimed, before every call: drop what the previous call returned, so each call starts from
  // the same state.
  virtual void prepare() {}
  // Timed and counted; collective over the case's communicator.
  virtual void call() = 0;
  // Untimed, collective, after a call: its quality figures.
  virtual Figures figures() = 0;

  [[nodiscard]] const std::string& case_name() const { return case_name_; }
  [[nodiscard]] const std::string& method() const { return method_; }
  [[nodiscard]] std::string key() const { return case_name_ + "." + method_; }
  [[nodiscard]] long long n() const { return n_; }  // global objects (cells, points, vertices)
  [[nodiscard]] int parts() const { return parts_; }

 private:
  std::string case_name_, method_;
  long long n_ = 0;
  int parts_ = 0;
};

// The cases, built for this communicator's size (collective: each generates its input).
std::unique_ptr<ScalingCase> make_floor_case(const hpart::Comm& comm, const Sizes& s);
std::unique_ptr<ScalingCase> make_points_case(const hpart::Comm& comm, const Sizes& s);
std::unique_ptr<ScalingCase> make_repart_points_case(const hpart::Comm& comm, const Sizes& s);
std::unique_ptr<ScalingCase> make_grid_case(const hpart::Comm& comm, const Sizes& s, bool blocks);
std::unique_ptr<ScalingCase> make_hier_case(const hpart::Comm& comm, const Sizes& s);
std::unique_ptr<ScalingCase> make_graph_case(const hpart::Comm& comm, const Sizes& s);
std::unique_ptr<ScalingCase> make_repart_graph_case(const hpart::Comm& comm, const Sizes& s);
#if HPART_HAVE_TENSOR
std::unique_ptr<ScalingCase> make_halo_case(const hpart::Comm& comm, const Sizes& s);
std::unique_ptr<ScalingCase> make_conv_case(const hpart::Comm& comm, const Sizes& s);
#endif

// Every case name of the suite ("points.hilbert", ...), in run order (the floor excluded).
const std::vector<std::string>& case_keys();
// Builds the case `key` (one of case_keys()).
std::unique_ptr<ScalingCase> make_case(const hpart::Comm& comm, const Sizes& s, const std::string& key);

}  // namespace hpart_scaling
