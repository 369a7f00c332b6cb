#pragma once
// Thin RAII layer over the HDF5 C API for hpart's parallel readers and writers. Files are opened
// with MPI-IO on the caller's communicator; dataset transfers are collective (every rank calls,
// each with its own hyperslab, possibly empty). Every step that can fail is agreed with
// Comm::agree, so a missing file or dataset throws the same hpart::Error on every rank and no
// rank is left waiting in a later collective call. HDF5's own error printing is silenced while an
// H5File lives; its innermost message goes into hpart's.
#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "kernels/scope_guard.hpp"

namespace hpart::detail {

// An owned HDF5 identifier, closed with the function of its kind (H5Fclose, H5Dclose, ...).
class H5Id {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Id() = default;
  H5Id(hid_t id, Closer close) : id_(id), close_(close) {}
  ~H5Id() { reset(); }
  H5Id(H5Id&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = H5I_INVALID_HID; }
  H5Id& operator=(H5Id&& other) noexcept;
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;

  [[nodiscard]] hid_t get() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return id_ >= 0; }
  void reset() noexcept;

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

// Silences HDF5's automatic error-stack printing for its lifetime and restores the caller's
// handler afterwards: hpart reports failures as hpart::Error, once, on rank 0's terms.
class QuietHdf5Errors : detail::ScopeOnly {
 public:
  QuietHdf5Errors();
  ~QuietHdf5Errors();

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The innermost description on HDF5's current error stack (what actually failed), or "".
std::string hdf5_error_detail();

// The memory type HDF5 converts to or from for a C++ element type.
template <class T>
hid_t native_type();
template <>
inline hid_t native_type<double>() { return H5T_NATIVE_DOUBLE; }
template <>
inline hid_t native_type<std::int32_t>() { return H5T_NATIVE_INT32; }
template <>
inline hid_t native_type<std::int64_t>() { return H5T_NATIVE_INT64; }

struct H5Dataset {
  H5Id id;
  std::string name;
  std::vector<hsize_t> dims;  // slowest first (C order)
  H5T_class_t type_class = H5T_NO_CLASS;
  bool is_signed = true;      // integers: whether the stored type has a sign
  std::size_t type_size = 0;  // bytes per stored element

  [[nodiscard]] int rank() const { return static_cast<int>(dims.size()); }
  [[nodiscard]] bool numeric() const { return type_class == H5T_INTEGER || type_class == H5T_FLOAT; }
  // The memory type that holds every stored integer exactly (HDF5 clamps values that do not fit
  // the memory type, silently): int64, or uint64 for unsigned 64-bit data, read into the same 8
  // bytes, where values >= 2^63 then show as negative (exact_integer_text names them).
  [[nodiscard]] hid_t exact_integer_type() const {
    return !is_signed && type_size >= 8 ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64;
  }
  // The stored value behind an element read with exact_integer_type().
  [[nodiscard]] std::string exact_integer_text(std::int64_t v) const {
    return !is_signed && type_size >= 8 ? std::to_string(static_cast<std::uint64_t>(v)) : std::to_string(v);
  }
  [[nodiscard]] std::string shape() const;  // "1000 x 3"
};

class H5File {
 public:
  enum class Mode { read, create };
  // Collective and agreed: opens `path` read-only, or creates it (replacing it), with MPI-IO.
  // The path and mode are compared across ranks first (the open is collective over one file).
  H5File(const Comm& comm, const std::string& path, Mode mode);
  H5File(const H5File&) = delete;
  H5File& operator=(const H5File&) = delete;

  [[nodiscard]] const Comm& comm() const noexcept { return comm_; }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] hid_t get() const noexcept { return file_.get(); }

  // "path: /dataset" for messages.
  [[nodiscard]] std::string where(const std::string& dataset) const { return path_ + ": " + dataset; }

  // Collective and agreed. The name is compared across ranks first. A missing dataset is an io
  // Error naming file and dataset when `required`; otherwise an empty optional (the same on every
  // rank). Integer types wider than 64 bits are an io Error (no memory type holds them exactly).
  std::optional<H5Dataset> open(const std::string& name, bool required) const;
  // Collective and agreed: a new contiguous dataset of `file_type` and shape `dims`.
  H5Dataset create(const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims) const;

  // Collective and agreed: every rank reads (writes) the block [start, start + count) of `ds`,
  // converted from (to) `mem_type`; a rank with an empty block takes part with no selection (its
  // buffer may then be null: an empty vector's data()).
  // `start` and `count` have ds.rank() entries; `buffer` holds the block in C order.
  void read(const H5Dataset& ds, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count,
            hid_t mem_type, void* buffer) const;
  void write(const H5Dataset& ds, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count,
             hid_t mem_type, const void* buffer) const;

  // Collective: an attribute on the root group holding `values` (the same on every rank).
  template <class T>
  void attribute(const std::string& name, std::span<const T> values) const {
    write_attribute(name, native_type<T>(), values.data(), values.size());
  }
  template <class T>
  void attribute(const std::string& name, T value) const {
    write_attribute(name, native_type<T>(), &value, 1);
  }

 private:
  void write_attribute(const std::string& name, hid_t type, const void* values, std::size_t count) const;
  enum class Direction { read, write };
  void transfer(Direction direction, const H5Dataset& ds, const std::vector<hsize_t>& start,
                const std::vector<hsize_t>& count, hid_t mem_type, void* buffer) const;

  QuietHdf5Errors quiet_;  // first member: silences HDF5 until after the file is closed
  Comm comm_;
  std::string path_;
  H5Id file_;
};

// The first row of rank r's block when `n` rows are spread over `ranks`: n r / R, overflow-free.
hsize_t block_begin(hsize_t n, int rank, int ranks);

}  // namespace hpart::detail
