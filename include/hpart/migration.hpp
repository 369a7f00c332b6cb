#pragma once
// Moving objects to the ranks that own their parts: fixed-size records, variable-size payloads
// (a byte array with per-object sizes, or a Serialiser's pack/unpack callbacks) and, optionally,
// the objects' global ids, checked for duplicates across the communicator.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/partition.hpp"
#include "hpart/types.hpp"

namespace hpart {

// Which rank owns part p. The default: contiguous blocks of parts, owner(p) = p * R / K.
struct PartOwners {
  int num_parts = 1;
  int num_ranks = 1;
  [[nodiscard]] int owner(part_t p) const {
    return static_cast<int>((static_cast<long long>(p) * num_ranks) / num_parts);
  }
};

// How a move talks. dense: one MPI_Alltoallv (every rank pair takes part, with zero counts
// where nothing goes). sparse: MPI_Isend/Irecv only between ranks that exchange records (the
// counts are known from the plan), the local share copied in memory. automatic: sparse when
// the busiest rank has at most (R - 1) / 4 peers (ranks it sends to or receives from), dense
// otherwise: Alltoallv costs O(R) per rank whatever the counts, point-to-point O(peers), and
// below a quarter of the ranks the messages saved outweigh Alltoallv's tuned schedule. Both give
// the same result, bit for bit.
enum class Exchange { automatic, dense, sparse };

// Packing into a bounded buffer: a write past the declared size is not done but counted, so a
// Serialiser whose pack() writes more (or less) than its size() said is caught before anything
// is sent.
class ByteWriter {
 public:
  ByteWriter(unsigned char* begin, std::size_t capacity) : at_(begin), capacity_(capacity) {}
  void write(const void* data, std::size_t n) {
    // n == 0 may come with a null pointer (an empty vector's data()): memcpy must not see it.
    if (n > 0 && written_ + n <= capacity_) std::memcpy(at_ + written_, data, n);
    written_ += n;
  }
  template <class T>
  void put(const T& v) {
    write(&v, sizeof(T));
  }
  [[nodiscard]] std::size_t written() const { return written_; }  // includes bytes not written
  [[nodiscard]] bool overflowed() const { return written_ > capacity_; }

 private:
  unsigned char* at_;
  std::size_t capacity_;
  std::size_t written_ = 0;
};

// Reading one arrived object: a read past its end yields zeros and is counted, and Migration
// reports it (or bytes left unread) as an error on every rank.
class ByteReader {
 public:
  explicit ByteReader(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  void read(void* data, std::size_t n) {
    if (n == 0) return;  // data may be null then (an empty vector's data())
    if (read_ + n <= bytes_.size())
      std::memcpy(data, bytes_.data() + read_, n);
    else
      std::memset(data, 0, n);
    read_ += n;
  }
  template <class T>
  T get() {
    T v;
    read(&v, sizeof(T));
    return v;
  }
  [[nodiscard]] std::size_t remaining() const { return read_ < bytes_.size() ? bytes_.size() - read_ : 0; }
  [[nodiscard]] std::size_t consumed() const { return read_; }  // includes bytes past the end
  [[nodiscard]] std::span<const unsigned char> bytes() const { return bytes_; }

 private:
  std::span<const unsigned char> bytes_;
  std::size_t read_ = 0;
};

// The caller's view of its objects for a variable-size move. Migration calls size(i) and then
// pack(i) for every local object i, sends, calls prepare(num_imports) once and unpack(k) for
// every arriving object k = 0..num_imports-1 in arrival order (the order of every other move of
// the same plan). unpack must read exactly the object's bytes.
class Serialiser {
 public:
  virtual ~Serialiser() = default;
  [[nodiscard]] virtual std::size_t size(std::size_t i) const = 0;
  virtual void pack(std::size_t i, ByteWriter& out) const = 0;
  virtual void prepare(std::size_t /*num_imports*/) {}
  virtual void unpack(std::size_t k, ByteReader& in) = 0;
};

// Variable-size records after a move: object k's bytes are bytes[offsets[k], offsets[k + 1]).
struct VariableRecords {
  std::vector<std::size_t> offsets;  // num_imports + 1 entries, offsets[0] = 0
  std::vector<unsigned char> bytes;
  [[nodiscard]] std::size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  [[nodiscard]] std::span<const unsigned char> record(std::size_t k) const {
    return {bytes.data() + offsets[k], offsets[k + 1] - offsets[k]};
  }
};

// The export/import plan of one migration, built once and used to move any number of arrays.
// Objects arrive grouped by source rank, each group in the sender's local order.
class Migration {
 public:
  // Collective. `ids` (optional, one per local object) are checked: non-negative and unique
  // across the communicator (each id is sent to a rank chosen by its hash, which finds the
  // repeats: O(n) traffic, once per plan). A repeat throws hpart::Error on every rank and
  // nothing is moved. imported_ids() then gives the ids of the arriving objects.
  Migration(const Comm& comm, std::span<const part_t> parts, PartOwners owners, std::span<const gid_t> ids = {});
  // Any part -> rank map (num_parts entries, each a rank of comm), e.g. a hierarchical
  // partition's owner_of_part, whose nodes' ranks need not be contiguous.
  Migration(const Comm& comm, std::span<const part_t> parts, std::span<const int> owner_of_part,
            std::span<const gid_t> ids = {});
  Migration(const Comm& comm, const Partition& p, std::span<const gid_t> ids = {})
      : Migration(comm, p.parts, PartOwners{p.num_parts, comm.size()}, ids) {}

  // Collective (a wrong length on any rank throws on every rank): sends each local record to the rank that owns its part and returns the
  // records this rank now owns. `in` has one record per local object (trivially copyable).
  template <class T>
  std::vector<T> move(std::span<const T> in) const {
    std::vector<T> out(num_imports_);
    move_bytes(in.data(), in.size(), sizeof(T), out.data());
    return out;
  }
  template <class T>
  std::vector<T> move(const std::vector<T>& in) const {
    return move(std::span<const T>(in));
  }
  // Collective: move() without a C++ type for the records (the C API): n records of
  // record_size bytes each at `in`; `out` has room for num_imports() records.
  void move_records(const void* in, std::size_t n, std::size_t record_size, void* out) const {
    move_bytes(in, n, record_size, out);
  }

  // Collective: variable-size records, object i's bytes being the sizes[i] bytes that follow
  // those of objects 0..i-1 in `bytes` (so bytes.size() = sum of sizes). Throws on every rank
  // if any rank's lengths disagree with each other or with the plan.
  [[nodiscard]] VariableRecords move_variable(std::span<const std::size_t> sizes,
                                              std::span<const unsigned char> bytes) const;
  // Collective: the same through callbacks. A pack() that writes more or fewer bytes than its
  // size() declared, or an unpack() that reads more or fewer than arrived, throws on every rank;
  // the first before anything is sent.
  void move(Serialiser& s) const;

  [[nodiscard]] std::size_t num_imports() const { return num_imports_; }
  [[nodiscard]] std::size_t num_exports() const { return num_exports_; }  // leave this rank
  // Objects that change rank, all ranks. A Migration does not see the objects' weights, so its
  // weight is their count (unit weights); the partitioners' results carry the real weight.
  [[nodiscard]] MigrationStats migrated() const {
    return {global_migrated_, static_cast<double>(global_migrated_)};
  }
  // Bytes that left (arrived at) this rank in all moves so far, not counting its records to
  // itself; a variable move counts its payload and one 8-byte size per object.
  [[nodiscard]] std::size_t bytes_sent() const { return bytes_sent_; }
  [[nodiscard]] std::size_t bytes_received() const { return bytes_received_; }
  // Records this rank sends to (receives from) each rank, self included.
  [[nodiscard]] std::span<const int> send_counts() const { return send_counts_; }
  [[nodiscard]] std::span<const int> recv_counts() const { return recv_counts_; }
  // Ids of the arriving objects, in arrival order (empty unless ids were given).
  [[nodiscard]] const std::vector<gid_t>& imported_ids() const { return imported_ids_; }

  // The exchange moves use: automatic resolves, at construction, to dense or sparse (the
  // same on every rank). Setting it is for tests and measurements; every rank must set the same.
  [[nodiscard]] Exchange exchange() const { return exchange_; }
  void set_exchange(Exchange e);

 private:
  void move_bytes(const void* in, std::size_t n, std::size_t record_size, void* out) const;
  // The exchange itself, of records already grouped by destination (in order_'s order).
  void exchange_grouped(const void* grouped, std::size_t record_size, void* out) const;
  // Variable records grouped by destination, with their sizes.
  [[nodiscard]] VariableRecords exchange_variable(const std::vector<std::uint64_t>& sizes,
                                                  const std::vector<unsigned char>& grouped) const;

  Comm comm_;
  std::vector<std::size_t> order_;  // local indices grouped by destination rank
  // Per-rank record counts and offsets, as MPI_Alltoallv takes them.
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::size_t num_imports_ = 0;
  std::size_t num_exports_ = 0;
  long long global_migrated_ = 0;
  int max_peers_ = 0;  // over all ranks: ranks one rank sends to or receives from
  Exchange exchange_ = Exchange::dense;
  std::vector<gid_t> imported_ids_;
  mutable std::size_t bytes_sent_ = 0;
  mutable std::size_t bytes_received_ = 0;
};

}  // namespace hpart
