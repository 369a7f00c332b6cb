#include "kernels/chains_support.hpp"

#include <cmath>
#include <cstddef>
#include <numeric>
#include <sstream>
#include <string>

#include "hpart/error.hpp"

namespace hpart::balance::detail {
namespace {

[[noreturn]] void fail(ErrorCode code, std::string_view caller, const std::string& what) {
  std::ostringstream msg;
  msg << caller << ": " << what;
  throw Error(code, msg.str());
}

std::string describe_weight(std::size_t index, double value) {
  std::ostringstream s;
  s << "weight " << index << " is " << value
    << "; item weights must be finite and >= 0 (give empty items weight 0)";
  return s.str();
}

template <typename Weight>
void count_items_instead(std::vector<Weight>& prefix) {
  std::iota(prefix.begin(), prefix.end(), Weight{0});
}

}  // namespace

PartTargets checked_targets(std::span<const double> targets, int parts, std::string_view caller) {
  if (parts < 1)
    fail(ErrorCode::invalid_argument, caller, "parts must be >= 1, got " + std::to_string(parts));
  const auto k = static_cast<std::size_t>(parts);
  PartTargets t;
  t.uniform = targets.empty();
  t.share.assign(k, 1.0 / static_cast<double>(parts));
  t.cumulative.resize(k + 1);
  if (t.uniform) {
    for (std::size_t j = 0; j <= k; ++j)
      t.cumulative[j] = static_cast<double>(j) / static_cast<double>(parts);
    return t;
  }

  if (targets.size() != k)
    fail(ErrorCode::invalid_argument, caller,
         "targets has " + std::to_string(targets.size()) + " values for " + std::to_string(parts) +
             " parts; pass one relative size per part, or none for equal parts");
  double sum = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    if (!(targets[j] > 0.0) || !std::isfinite(targets[j])) {
      std::ostringstream s;
      s << "target " << j << " is " << targets[j]
        << "; part targets must be finite and > 0 (drop a part rather than giving it 0)";
      fail(ErrorCode::invalid_argument, caller, s.str());
    }
    sum += targets[j];
  }
  if (!std::isfinite(sum))
    fail(ErrorCode::invalid_argument, caller, "the targets' sum overflows; scale them down");
  double running = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    t.share[j] = targets[j] / sum;
    t.cumulative[j] = running / sum;
    running += targets[j];
  }
  t.cumulative[k] = 1.0;  // exactly, whatever the rounding of the running sum
  return t;
}

std::vector<double> checked_prefix_sums(std::span<const double> weights, std::string_view caller,
                                        bool count_if_weightless) {
  std::vector<double> prefix(weights.size() + 1);
  double sum = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double w = weights[i];
    if (!(w >= 0.0) || !std::isfinite(w))
      fail(ErrorCode::invalid_input, caller, describe_weight(i, w));
    sum += w;
    prefix[i + 1] = sum;
  }
  if (!std::isfinite(sum))
    fail(ErrorCode::invalid_input, caller,
         "the sum of the weights overflows a double; scale them down");
  if (sum == 0.0 && count_if_weightless) count_items_instead(prefix);
  return prefix;
}

std::vector<std::int64_t> checked_prefix_sums(std::span<const std::int64_t> weights,
                                              std::string_view caller, bool count_if_weightless) {
  std::vector<std::int64_t> prefix(weights.size() + 1);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const std::int64_t w = weights[i];
    if (w < 0) fail(ErrorCode::invalid_input, caller, describe_weight(i, static_cast<double>(w)));
    if (__builtin_add_overflow(sum, w, &sum))
      fail(ErrorCode::invalid_input, caller,
           "the sum of the weights overflows int64; scale them down");
    prefix[i + 1] = sum;
  }
  if (sum == 0 && count_if_weightless) count_items_instead(prefix);
  return prefix;
}

}  // namespace hpart::balance::detail
