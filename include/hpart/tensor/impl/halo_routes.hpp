#pragma once
// What a halo message needs to travel straight from / into a local array: the region as runs of
// contiguous elements, and an MPI datatype describing it, committed once per plan.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include "hpart/tensor/layout.hpp"

namespace hpart::tensor::impl {

// An owned MPI handle (Traits: the handle type, its null value and how to free it), freed once
// and not after MPI_Finalize. Movable, not copyable.
template <class Traits>
class OwnedMpi {
 public:
  using Handle = typename Traits::Handle;
  OwnedMpi() = default;
  explicit OwnedMpi(Handle h) : handle_(h) {}
  OwnedMpi(const OwnedMpi&) = delete;
  OwnedMpi& operator=(const OwnedMpi&) = delete;
  OwnedMpi(OwnedMpi&& o) noexcept : handle_(std::exchange(o.handle_, Traits::null())) {}
  OwnedMpi& operator=(OwnedMpi&& o) noexcept {
    if (this != &o) reset(), handle_ = std::exchange(o.handle_, Traits::null());
    return *this;
  }
  ~OwnedMpi() { reset(); }
  [[nodiscard]] Handle get() const { return handle_; }

 private:
  void reset() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (handle_ != Traits::null() && !finalized) Traits::free(&handle_);
    handle_ = Traits::null();
  }
  Handle handle_ = Traits::null();
};

struct DatatypeTraits {
  using Handle = MPI_Datatype;
  static Handle null() { return MPI_DATATYPE_NULL; }
  static void free(Handle* h) { MPI_Type_free(h); }
};
struct CommTraits {
  using Handle = MPI_Comm;
  static Handle null() { return MPI_COMM_NULL; }
  static void free(Handle* h) { MPI_Comm_free(h); }
};

// An owned, committed MPI datatype.
using CommittedType = OwnedMpi<DatatypeTraits>;

// An owned duplicate of a communicator: a plan's own collectives cannot pair with another plan's
// whatever order the plans are ended in.
class OwnedComm : public OwnedMpi<CommTraits> {
 public:
  OwnedComm() = default;
  explicit OwnedComm(MPI_Comm parent) : OwnedMpi(duplicate(parent)) {}

 private:
  static MPI_Comm duplicate(MPI_Comm parent) {
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_dup(parent, &c);
    return c;
  }
};

// Persistent requests (MPI_Send_init / MPI_Recv_init) of one exchange direction, made for one
// tensor address (`key`) and started again for every exchange of that tensor.
class PersistentRequests {
 public:
  PersistentRequests() = default;
  PersistentRequests(const PersistentRequests&) = delete;
  PersistentRequests& operator=(const PersistentRequests&) = delete;
  PersistentRequests(PersistentRequests&& o) noexcept
      : key_(std::exchange(o.key_, nullptr)), requests_(std::move(o.requests_)), built_(std::exchange(o.built_, false)) {}
  PersistentRequests& operator=(PersistentRequests&& o) noexcept {
    if (this != &o) {
      reset();
      key_ = std::exchange(o.key_, nullptr);
      requests_ = std::move(o.requests_);
      built_ = std::exchange(o.built_, false);
    }
    return *this;
  }
  ~PersistentRequests() { reset(); }

  [[nodiscard]] bool built_for(const void* key) const { return built_ && key_ == key; }
  // Frees the old requests (all inactive) and returns the list to fill for `key`.
  std::vector<MPI_Request>& rebuild(const void* key) {
    reset();
    key_ = key;
    built_ = true;
    return requests_;
  }
  void clear() { reset(); }  // the requests are rebuilt on the next post
  void start() {
    if (!requests_.empty()) MPI_Startall(static_cast<int>(requests_.size()), requests_.data());
  }
  void wait() {
    if (!requests_.empty()) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  void reset() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
      for (MPI_Request& r : requests_)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
    requests_.clear();
    built_ = false;
    key_ = nullptr;
  }
  const void* key_ = nullptr;
  std::vector<MPI_Request> requests_;
  bool built_ = false;
};

// A box (lo, count) of a row-major array of extents `ext`, as contiguous runs: the trailing axes
// the box spans completely merge into one run with the first one it does not.
struct RegionRuns {
  std::int64_t first = 0;  // linear index of the box's first element
  std::int64_t run = 0;    // elements per run
  int merged_from = kRank - 1;  // axes merged_from .. kRank-1 form a run
  std::array<std::int64_t, kRank> stride{};  // elements, per axis
};

inline RegionRuns region_runs(const Index5& ext, const Index5& lo, const Index5& count) {
  RegionRuns r;
  std::int64_t s = 1;
  for (int a = kRank - 1; a >= 0; --a) {
    const auto ua = static_cast<std::size_t>(a);
    r.stride[ua] = s;
    r.first += lo[ua] * s;
    s *= ext[ua];
  }
  r.run = count[kRank - 1];
  while (r.merged_from > 0 && count[static_cast<std::size_t>(r.merged_from)] == ext[static_cast<std::size_t>(r.merged_from)]) {
    --r.merged_from;
    r.run *= count[static_cast<std::size_t>(r.merged_from)];
  }
  return r;
}

// First element of every run, in row-major order of the box (the order of a packed buffer).
inline std::vector<std::int64_t> run_starts(const RegionRuns& r, const Index5& count) {
  std::vector<std::int64_t> out{r.first};
  for (int a = r.merged_from - 1; a >= 0; --a) {
    const auto ua = static_cast<std::size_t>(a);
    if (count[ua] <= 1) continue;
    std::vector<std::int64_t> next;
    next.reserve(out.size() * static_cast<std::size_t>(count[ua]));
    for (std::int64_t i = 0; i < count[ua]; ++i)
      for (std::int64_t f : out) next.push_back(f + i * r.stride[ua]);
    out = std::move(next);
  }
  // Built innermost-axis-first above; sort into the box's row-major order.
  std::vector<std::int64_t> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// Nested hvectors over the box, displacements from its first element; MPI_DATATYPE_NULL when a
// count does not fit an int.
inline MPI_Datatype region_datatype(const RegionRuns& r, const Index5& count, MPI_Datatype element,
                                    std::int64_t element_bytes) {
  if (r.run > INT_MAX) return MPI_DATATYPE_NULL;
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(r.run), element, &t);
  for (int a = r.merged_from - 1; a >= 0; --a) {
    const auto ua = static_cast<std::size_t>(a);
    if (count[ua] <= 1) continue;
    if (count[ua] > INT_MAX) {
      MPI_Type_free(&t);
      return MPI_DATATYPE_NULL;
    }
    MPI_Datatype outer;
    MPI_Type_create_hvector(static_cast<int>(count[ua]), 1, static_cast<MPI_Aint>(r.stride[ua] * element_bytes), t,
                            &outer);
    MPI_Type_free(&t);
    t = outer;
  }
  MPI_Type_commit(&t);
  return t;
}

}  // namespace hpart::tensor::impl
