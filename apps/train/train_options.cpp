#include "train_options.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace hpart_train {

namespace {
constexpr const char* kFooter = R"(
Every step draws a new random field (values by global cell index from --seed and the step, so
the data are the same at any rank count), computes its target with --heat-steps explicit heat
steps (a fixed 5-point stencil as a sharded conv, zero outside the domain), and takes one
optimizer step on the MSE of a --depth-layer CNN of 3x3 convs with GELU between them (or a
one-level U-Net: --model unet). Batch 1,
split across the ranks by a 2-D process mesh (--mesh grid) or by rows (--mesh slabs).

Examples (under mpirun; as root add --allow-run-as-root --oversubscribe):
  mpirun -np 2 hpart-train                           # 1024^2, 8 channels, 20 steps
  mpirun -np 4 hpart-train --n 256 --steps 20 --json train.jsonl
Exit codes: 0 success, 1 bad command line, 2 bad input or I/O error.)";
}  // namespace

std::optional<int> parse_train_options(int argc, char** argv, int rank, TrainOptions& o) {
  CLI::App app{"hpart-train: domain-parallel training of a small CNN that learns explicit heat steps"};
  app.footer(kFooter);
  app.add_option("--n", o.n, "cells per side of a sample")->check(CLI::Range(4LL, 1LL << 16))->capture_default_str();
  app.add_option("--channels", o.channels, "hidden channels")->check(CLI::Range(1, 1024))->capture_default_str();
  app.add_option("--model", o.model, "cnn (--depth 3x3 convs) or unet (one level: pool, upsample, skip; --n even)")
      ->check(CLI::IsMember({"cnn", "unet"}))->capture_default_str();
  app.add_option("--depth", o.depth, "3x3 conv layers (>= 1)")->check(CLI::Range(1, 64))->capture_default_str();
  app.add_option("--heat-steps", o.heat_steps, "explicit heat steps of the target")->check(CLI::Range(0, 1000))->capture_default_str();
  app.add_option("--alpha", o.alpha, "heat step coefficient")->check(CLI::Range(0.0, 0.25))->capture_default_str();
  app.add_option("--steps", o.steps, "training steps")->check(CLI::Range(1, 1 << 30))->capture_default_str();
  app.add_option("--optimizer", o.optimizer, "sgd or adam")->check(CLI::IsMember({"sgd", "adam"}))->capture_default_str();
  app.add_option("--lr", o.lr, "learning rate (0: adam 0.02, sgd 0.5)")->check(CLI::Range(0.0, 10.0));
  app.add_option("--mesh", o.mesh, "grid or slabs")->check(CLI::IsMember({"grid", "slabs"}))->capture_default_str();
  app.add_option("--precision", o.precision, "double or float")->check(CLI::IsMember({"double", "float"}))->capture_default_str();
  app.add_option("--seed", o.seed, "data and weight seed")->capture_default_str();
  app.add_option("--json", o.json, "write one JSON Lines record per step (BENCH.md: suite app-train)");
  app.add_option("-t,--threads", o.threads,
                 "OpenMP threads per rank (default: OMP_NUM_THREADS if set, else the cores of this rank: its affinity "
                 "mask, or the node's cores shared among the job's ranks there)")
      ->check(CLI::Range(1, 1024));
  app.add_flag("--quiet", o.quiet, "print only the summary");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) return app.exit(e);
    return e.get_exit_code();
  }
  if (o.model == "unet" && o.n % 2 != 0) {
    if (rank == 0) std::fprintf(stderr, "hpart-train: --model unet needs an even --n (got %lld)\n", static_cast<long long>(o.n));
    return 1;
  }
  if (o.lr == 0.0) o.lr = o.optimizer == "adam" ? 0.02 : 0.5;
  return std::nullopt;
}

}  // namespace hpart_train
