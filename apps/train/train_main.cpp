// hpart-train: domain-parallel training of a small CNN that learns k explicit steps of the 2-D
// heat equation, one sample of --n^2 cells per step split across the ranks. The loss curve is
// the same at any rank count (to rounding): data by global index, replicated weights with
// all-reduced gradients, and sharded convs equal to unsharded ones.
#include <mpi.h>
#include <omp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "heat_cnn.hpp"
#include "heat_samples.hpp"
#include "heat_unet.hpp"
#include "hpart/tensor/tensor.hpp"
#include "thread_default.hpp"
#include "train_options.hpp"

namespace hpart_train {
namespace {

namespace ht = hpart::tensor;

ht::Mesh mesh_for(const std::string& kind, int size) {
  if (kind == "slabs") return ht::Mesh::slabs(size);
  int ph = 1;
  for (int d = 1; d * d <= size; ++d)
    if (size % d == 0) ph = d;
  return ht::Mesh::grid2d(size / ph, ph);
}

template <class T, class Model>
int train(const hpart::Comm& comm, const TrainOptions& o, const std::string& threads_why, Model& model) {
  std::string problem;
  std::FILE* json = nullptr;
  if (comm.rank() == 0 && !o.json.empty()) {
    json = std::fopen(o.json.c_str(), "w");
    if (!json) problem = "cannot open --json file '" + o.json + "' for writing: " + std::strerror(errno);
  }
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, problem);

  const auto shape = ht::TensorShape::d2(1, 1, o.n, o.n);
  const ht::Mesh mesh = mesh_for(o.mesh, comm.size());
  ht::SplitOptions split;
  split.align_levels = o.model == "unet" ? 1 : 0;  // the U-Net pools once
  const auto layout = ht::ShardLayout::sharded(comm, shape, mesh, split);
  ht::ShardTensor<T> x(layout, ht::Halo::uniform(1), "hpart_train::x");
  auto target = x.like("hpart_train::target");
  HeatTarget<T> heat(o.heat_steps, o.alpha);
  ht::Sgd<T> sgd({.lr = o.lr});
  ht::Adam<T> adam({.lr = o.lr});
  const int threads = omp_get_max_threads();
  if (comm.rank() == 0 && !o.quiet)
    std::printf("hpart-train: %lld^2 cells, %d ranks (mesh %dx%d), %s of %d convs, %d channels (%lld parameters), "
                "%d heat steps, %s lr %g, %s; %s\n",
                static_cast<long long>(o.n), comm.size(), mesh.parts[ht::kAxisH], mesh.parts[ht::kAxisW], o.model.c_str(),
                o.model == "unet" ? 3 : o.depth,
                o.channels, static_cast<long long>(model.parameter_count()), o.heat_steps, o.optimizer.c_str(), o.lr,
                o.precision.c_str(), threads_why.c_str());
  double first = 0, last = 0, total = 0;
  for (int s = 0; s < o.steps; ++s) {
    MPI_Barrier(comm.get());
    const double t0 = MPI_Wtime();
    fill_sample(x, o.seed, static_cast<std::uint64_t>(s));
    heat.apply(x, target);
    const double loss = model.step(x, target);
    if (o.optimizer == "adam")
      adam.step(model.parameters());
    else
      sgd.step(model.parameters());
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    total += dt;
    if (s == 0) first = loss;
    last = loss;
    if (comm.rank() != 0) continue;
    if (!o.quiet) std::printf("step %4d  loss %.15e  %.3f s\n", s, loss, dt);
    if (json) {
      nlohmann::ordered_json j;
      j["suite"] = "app-train";
      j["case"] = "heat2d";
      j["library"] = "hpart";
      j["method"] = (o.model == "unet" ? std::string("unet") : "cnn" + std::to_string(o.depth)) + "x" +
                    std::to_string(o.channels);
      j["n"] = o.n * o.n;
      j["side"] = o.n;
      j["parts"] = comm.size();
      j["ranks"] = comm.size();
      j["threads"] = threads;
      j["precision"] = o.precision;
      j["step"] = s;
      j["loss"] = loss;
      j["time_s"] = dt;
      std::fprintf(json, "%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
      std::fflush(json);
    }
  }
  if (json) std::fclose(json);
  if (comm.rank() == 0)
    std::printf("hpart-train: loss %.6e -> %.6e over %d steps (%s), %.3f s per step\n", first, last, o.steps,
                last < first ? "falling" : "NOT falling", total / o.steps);
  return 0;
}

template <class T>
int run(const hpart::Comm& comm, const TrainOptions& o, const std::string& threads_why) {
  if (o.model == "unet") {
    HeatUnet<T> model(o.channels, o.seed);
    return train<T>(comm, o, threads_why, model);
  }
  HeatCnn<T> model(o.channels, o.depth, o.seed);
  return train<T>(comm, o, threads_why, model);
}

}  // namespace
}  // namespace hpart_train

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int code = 0;
  hpart_train::TrainOptions opts;
  if (auto exit = hpart_train::parse_train_options(argc, argv, rank, opts)) {
    MPI_Finalize();
    return *exit;
  }
  {
    // Before Kokkos starts: its OpenMP pool takes the thread count OpenMP has then.
    const hpart_apps::ThreadChoice threads = hpart_apps::choose_threads(hpart::Comm(MPI_COMM_WORLD), opts.threads);
    hpart::tensor::KokkosSession kokkos(argc, argv);
    try {
      const hpart::Comm comm(MPI_COMM_WORLD);
      code = opts.precision == "float" ? hpart_train::run<float>(comm, opts, threads.why)
                                       : hpart_train::run<double>(comm, opts, threads.why);
    } catch (const hpart::Error& e) {
      if (rank == 0) std::fprintf(stderr, "hpart-train: %s\n", e.what());
      code = 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hpart-train (rank %d): %s\n", rank, e.what());
      code = 3;
    }
  }
  MPI_Finalize();
  return code;
}
