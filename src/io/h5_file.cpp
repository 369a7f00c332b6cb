#include "io/h5_file.hpp"

#include <utility>

#include "core/agreement.hpp"
#include "hpart/error.hpp"

namespace hpart::detail {
namespace {

// A property list of `cls`, or an invalid id (reported by the caller's next step).
H5Id plist(hid_t cls) { return H5Id(H5Pcreate(cls), H5Pclose); }

// Collective transfers: every rank takes part in each read and write, which lets MPI-IO
// aggregate the ranks' hyperslabs into few large file accesses. `collective` false: independent.
H5Id transfer_list(bool collective) {
  H5Id dxpl = plist(H5P_DATASET_XFER);
  if (dxpl.valid()) H5Pset_dxpl_mpio(dxpl.get(), collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT);
  return dxpl;
}

// Whether a dataset has storage in the file (the same answer on every rank: it is metadata). One
// without (chunked and never written) reads as its fill value, and HDF5 (1.10) serves that on the
// ranks that select elements without entering the collective I/O call, while a rank that selects
// none goes on into it and waits there forever (the file battery: a 2-row cost field at np 3).
// Such a read moves no file data, so it is done independently.
bool has_storage(hid_t dataset) {
  H5D_space_status_t status{};
  return H5Dget_space_status(dataset, &status) < 0 || status != H5D_SPACE_STATUS_NOT_ALLOCATED;
}

std::string with_detail(std::string message) {
  const std::string detail = hdf5_error_detail();
  if (!detail.empty()) message += " (HDF5: " + detail + ")";
  return message;
}

// A dataspace selecting [start, start + count) of `space`, or nothing for an empty block.
bool select_block(hid_t space, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count) {
  hsize_t volume = 1;
  for (const hsize_t c : count) volume *= c;
  if (volume == 0) return H5Sselect_none(space) >= 0;
  return H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) >= 0;
}

}  // namespace

H5Id& H5Id::operator=(H5Id&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    close_ = other.close_;
  }
  return *this;
}

void H5Id::reset() noexcept {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = H5I_INVALID_HID;
}

QuietHdf5Errors::QuietHdf5Errors() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietHdf5Errors::~QuietHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

std::string hdf5_error_detail() {
  // Walking upward starts at the innermost frame: the call that actually failed.
  std::string detail;
  auto first = [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
    if (n == 0 && e->desc != nullptr) *static_cast<std::string*>(out) = e->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first, &detail);
  H5Eclear2(H5E_DEFAULT);
  return detail;
}

std::string H5Dataset::shape() const {
  if (dims.empty()) return "a scalar";
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? " x " : "") + std::to_string(dims[i]);
  return s;
}

H5File::H5File(const Comm& comm, const std::string& path, Mode mode) : comm_(comm), path_(path) {
  detail::Replicated args;
  args.text("file path", path).value("file mode", static_cast<long long>(mode));
  detail::agree(comm, args, ErrorCode::ok, {});
  std::string message;
  H5Id fapl = plist(H5P_FILE_ACCESS);
  if (!fapl.valid() || H5Pset_fapl_mpio(fapl.get(), comm.get(), MPI_INFO_NULL) < 0) {
    message = with_detail("cannot set up MPI-IO access for '" + path + "'");
  } else if (mode == Mode::read) {
    file_ = H5Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
    if (!file_.valid()) message = with_detail("cannot open '" + path + "' as an HDF5 file");
  } else {
    file_ = H5Id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    if (!file_.valid()) message = with_detail("cannot create '" + path + "'");
  }
  // Opening is collective and fails alike on every rank; agreeing makes that a guarantee.
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

std::optional<H5Dataset> H5File::open(const std::string& name, bool required) const {
  detail::Replicated args;
  args.text("dataset name", name);
  detail::agree(comm_, args, ErrorCode::ok, {});
  // H5Lexists needs every group on the way to exist; a failing call means "absent" too.
  bool exists = true;
  for (std::size_t slash = name.find('/', 1); exists; slash = name.find('/', slash + 1)) {
    const std::string prefix = name.substr(0, slash);
    exists = !prefix.empty() && prefix != "/" && H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) > 0;
    if (slash == std::string::npos) break;
  }
  H5Eclear2(H5E_DEFAULT);
  if (!exists) {
    comm_.agree(required ? ErrorCode::io : ErrorCode::ok,
                required ? where(name) + ": no such dataset" : std::string());
    return std::nullopt;
  }
  H5Dataset ds;
  ds.name = name;
  ds.id = H5Id(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  std::string message;
  if (!ds.id.valid()) {
    message = with_detail(where(name) + ": not a dataset");
  } else {
    const H5Id space(H5Dget_space(ds.id.get()), H5Sclose);
    const H5Id type(H5Dget_type(ds.id.get()), H5Tclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0 || !type.valid()) {
      message = with_detail(where(name) + ": cannot read the dataset's shape or type");
    } else {
      ds.dims.resize(static_cast<std::size_t>(rank));
      H5Sget_simple_extent_dims(space.get(), ds.dims.data(), nullptr);
      ds.type_class = H5Tget_class(type.get());
      ds.type_size = H5Tget_size(type.get());
      if (ds.type_class == H5T_INTEGER) ds.is_signed = H5Tget_sign(type.get()) != H5T_SGN_NONE;
      if (ds.type_class == H5T_INTEGER && ds.type_size > 8)
        message = where(name) + ": holds " + std::to_string(8 * ds.type_size) +
                  "-bit integers; at most 64-bit integers are supported";
    }
  }
  comm_.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  return ds;
}

H5Dataset H5File::create(const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims) const {
  H5Dataset ds;
  ds.name = name;
  ds.dims = dims;
  std::string message;
  const H5Id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  H5Id dcpl = plist(H5P_DATASET_CREATE);
  // Every element is written, so HDF5 need not write fill values first.
  if (dcpl.valid()) H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER);
  if (space.valid() && dcpl.valid())
    ds.id = H5Id(H5Dcreate2(file_.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                 H5Dclose);
  if (!ds.id.valid()) message = with_detail(where(name) + ": cannot create the dataset");
  comm_.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  return ds;
}

void H5File::transfer(Direction direction, const H5Dataset& ds, const std::vector<hsize_t>& start,
                      const std::vector<hsize_t>& count, hid_t mem_type, void* buffer) const {
  // A dataset without elements has no storage to transfer (HDF5 fails on its address): every
  // rank sees the same shape, so every rank skips alike.
  hsize_t elements = 1;
  for (const hsize_t d : ds.dims) elements *= d;
  if (elements == 0) return;
  hsize_t volume = 1;
  for (const hsize_t c : count) volume *= c;
  const H5Id file_space(H5Dget_space(ds.id.get()), H5Sclose);
  const H5Id mem_space(H5Screate_simple(1, &volume, nullptr), H5Sclose);
  const H5Id dxpl = transfer_list(direction == Direction::write || has_storage(ds.id.get()));
  bool ok = file_space.valid() && mem_space.valid() && dxpl.valid() && select_block(file_space.get(), start, count);
  if (ok && volume == 0) ok = H5Sselect_none(mem_space.get()) >= 0;
  // Every rank must enter the collective call, even one whose setup failed (it selects
  // nothing then), or the others would wait for it forever. A rank with nothing to move may
  // hold no buffer at all (an empty vector); HDF5 refuses a null one before the collective.
  if (!ok && file_space.valid()) H5Sselect_none(file_space.get());
  if (!ok && mem_space.valid()) H5Sselect_none(mem_space.get());
  double none = 0.0;
  if (buffer == nullptr || !ok) buffer = &none;
  herr_t rc = -1;
  if (file_space.valid() && mem_space.valid()) {
    const hid_t xfer = dxpl.valid() ? dxpl.get() : H5P_DEFAULT;
    rc = direction == Direction::read ? H5Dread(ds.id.get(), mem_type, mem_space.get(), file_space.get(), xfer, buffer)
                                      : H5Dwrite(ds.id.get(), mem_type, mem_space.get(), file_space.get(), xfer, buffer);
  }
  std::string message;
  if (!ok || rc < 0)
    message = with_detail(where(ds.name) + (direction == Direction::read ? ": cannot read" : ": cannot write") +
                          " rows from " + std::to_string(start.empty() ? 0 : start[0]));
  comm_.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

void H5File::read(const H5Dataset& ds, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count,
                  hid_t mem_type, void* buffer) const {
  transfer(Direction::read, ds, start, count, mem_type, buffer);
}

void H5File::write(const H5Dataset& ds, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count,
                   hid_t mem_type, const void* buffer) const {
  // H5Dwrite only reads from the buffer; the cast serves the one transfer routine.
  transfer(Direction::write, ds, start, count, mem_type, const_cast<void*>(buffer));
}

void H5File::write_attribute(const std::string& name, hid_t type, const void* values, std::size_t count) const {
  const auto n = static_cast<hsize_t>(count);
  const H5Id space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  H5Id attr;
  if (space.valid()) attr = H5Id(H5Acreate2(file_.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const bool ok = attr.valid() && H5Awrite(attr.get(), type, values) >= 0;
  const std::string message = ok ? std::string() : with_detail(path_ + ": cannot write the attribute '" + name + "'");
  comm_.agree(ok ? ErrorCode::ok : ErrorCode::io, message);
}

hsize_t block_begin(hsize_t n, int rank, int ranks) {
  // n = q R + s, so n r / R = q r + s r / R, where s r < R^2 cannot overflow.
  const auto r = static_cast<hsize_t>(rank), R = static_cast<hsize_t>(ranks);
  return n / R * r + n % R * r / R;
}

}  // namespace hpart::detail
