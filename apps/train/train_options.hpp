#pragma once
// Command line of hpart-train.
#include <cstdint>
#include <optional>
#include <string>

namespace hpart_train {

struct TrainOptions {
  std::int64_t n = 1024;      // cells per side of each sample
  int channels = 8;           // hidden channels
  std::string model = "cnn";  // cnn (--depth 3x3 convs) or unet (one level, pool + upsample)
  int depth = 3;              // cnn: 3x3 convs (GELU between them)
  int heat_steps = 3;         // explicit heat steps the model learns (the target)
  double alpha = 0.2;         // heat step coefficient (stable for <= 0.25)
  int steps = 20;             // training steps, one new sample each
  std::string optimizer = "adam";
  double lr = 0.0;            // 0: the optimizer's default (adam 0.02, sgd 0.5)
  std::string mesh = "grid";  // grid (2-D process mesh) or slabs (split H only)
  std::string precision = "double";
  std::uint64_t seed = 1;
  std::string json;
  int threads = 0;            // OpenMP threads per rank; 0 = thread_default.hpp's default
  bool quiet = false;
};

// Parses argv (every rank the same). Returns an exit code when the program should stop (help,
// bad options: rank 0 prints), nothing when it should run.
std::optional<int> parse_train_options(int argc, char** argv, int rank, TrainOptions& o);

}  // namespace hpart_train
