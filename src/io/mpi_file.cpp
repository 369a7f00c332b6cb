#include "io/mpi_file.hpp"

#include <algorithm>
#include <cstdint>
#include <new>

#include "core/agreement.hpp"
#include "core/memory_budget.hpp"
#include "hpart/error.hpp"

namespace hpart::detail {
namespace {
constexpr std::size_t kMaxPiece = std::size_t{1} << 30;
constexpr std::size_t kOverhang = 1 << 16;  // read-ahead for the line that crosses our end

// The bytes of the lines that start in [begin, end) of the file. A line starts at byte 0 or
// right after a '\n'; the next rank computes the same boundary, so every line is read once.
// The last line may run far past `end` (a file without newlines): it may grow the buffer to
// `max_bytes`, beyond which it is an Error instead of an allocation that cannot be served.
std::string lines_starting_in(const MpiFile& file, const std::string& path, long long size, long long begin,
                              long long end, std::uint64_t max_bytes) {
  if (begin >= end) return {};
  const long long from = std::max(begin - 1, 0LL);
  std::string buf(static_cast<std::size_t>(end - from), '\0');
  buf.resize(file.read_at(from, buf.data(), buf.size()));
  std::size_t start = 0;
  if (begin > 0) {
    const std::size_t nl = buf.find('\n');
    if (nl == std::string::npos || static_cast<long long>(nl) + from + 1 >= end) return {};
    start = nl + 1;
  }
  // Our last line ends at the first '\n' at or after byte end - 1.
  std::size_t search = static_cast<std::size_t>(end - 1 - from);
  long long next = end;
  while (true) {
    const std::size_t nl = buf.find('\n', search);
    if (nl != std::string::npos) {
      buf.resize(nl + 1);
      break;
    }
    if (next >= size) break;  // the file's last line has no '\n'
    const std::size_t old = buf.size();
    if (old + kOverhang > max_bytes)
      throw Error(ErrorCode::invalid_input,
                  "reading '" + path + "': the line that starts before byte " + std::to_string(end) + " runs past " +
                      format_bytes(static_cast<double>(old)) + " without a newline, more than this rank may hold " +
                      "(HPART_MEMORY_LIMIT, or the node's available memory shared by its ranks): not a text file?");
    buf.resize(old + kOverhang);
    const std::size_t got = file.read_at(next, buf.data() + old, kOverhang);
    buf.resize(old + got);
    if (got == 0) break;
    search = old;
    next += static_cast<long long>(got);
  }
  buf.erase(0, start);  // in place: no second copy of the range
  return buf;
}
}  // namespace

std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  return std::string(text, static_cast<std::size_t>(len));
}

MpiFile::MpiFile(const Comm& comm, const std::string& path, Mode mode) : path_(path) {
  // MPI_File_open is collective over one file: a path or mode that differs between ranks would
  // open different files, or hang, so they are compared first.
  detail::Replicated args;
  args.text("file path", path).value("file mode", static_cast<long long>(mode));
  detail::agree(comm, args, ErrorCode::ok, {});
  const int amode = mode == Mode::read ? MPI_MODE_RDONLY : (MPI_MODE_WRONLY | MPI_MODE_CREATE);
  // MPI-IO returns errors (MPI_ERRORS_RETURN is the default handler for files).
  const int rc = MPI_File_open(comm.get(), path.c_str(), amode, MPI_INFO_NULL, &file_);
  std::string message;
  if (rc != MPI_SUCCESS) {
    message = "cannot open '" + path + "' for " + (mode == Mode::read ? "reading" : "writing") + ": " +
              mpi_error_string(rc);
    file_ = MPI_FILE_NULL;
  }
  // Open is collective, so either all ranks hold the file or none; agree before going on.
  try {
    comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  } catch (...) {
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
    throw;
  }
  if (mode == Mode::write_truncate) {
    const int trc = MPI_File_set_size(file_, 0);  // collective
    comm.agree(trc == MPI_SUCCESS ? ErrorCode::ok : ErrorCode::io,
               trc == MPI_SUCCESS ? std::string() : "cannot truncate '" + path + "': " + mpi_error_string(trc));
  }
}

MpiFile::~MpiFile() {
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
}

long long MpiFile::size() const {
  MPI_Offset s = 0;
  const int rc = MPI_File_get_size(file_, &s);
  if (rc != MPI_SUCCESS) throw Error(ErrorCode::io, "cannot get the size of '" + path_ + "': " + mpi_error_string(rc));
  return static_cast<long long>(s);
}

namespace {

// MPI counts are ints: a transfer goes in pieces of at most kMaxPiece bytes. io(done, piece)
// moves one piece and returns the bytes it moved; a short piece (end of file) ends the loop.
template <class Io>
std::size_t in_pieces(std::size_t bytes, Io io) {
  std::size_t done = 0;
  while (done < bytes) {
    const std::size_t piece = std::min(kMaxPiece, bytes - done);
    const std::size_t moved = io(done, piece);
    done += moved;
    if (moved < piece) break;
  }
  return done;
}

}  // namespace

std::size_t MpiFile::read_at(long long offset, char* buffer, std::size_t bytes) const {
  return in_pieces(bytes, [&](std::size_t done, std::size_t piece) {
    MPI_Status status;
    const int rc = MPI_File_read_at(file_, static_cast<MPI_Offset>(offset) + static_cast<MPI_Offset>(done),
                                    buffer + done, static_cast<int>(piece), MPI_CHAR, &status);
    if (rc != MPI_SUCCESS) throw Error(ErrorCode::io, "cannot read '" + path_ + "': " + mpi_error_string(rc));
    int got = 0;
    MPI_Get_count(&status, MPI_CHAR, &got);
    return static_cast<std::size_t>(got);
  });
}

void MpiFile::write_at(long long offset, const char* buffer, std::size_t bytes) const {
  in_pieces(bytes, [&](std::size_t done, std::size_t piece) {
    MPI_Status status;
    const int rc = MPI_File_write_at(file_, static_cast<MPI_Offset>(offset) + static_cast<MPI_Offset>(done),
                                     buffer + done, static_cast<int>(piece), MPI_CHAR, &status);
    if (rc != MPI_SUCCESS) throw Error(ErrorCode::io, "cannot write '" + path_ + "': " + mpi_error_string(rc));
    return piece;  // a write moves all of it or throws
  });
}

std::string read_rank_lines(const Comm& comm, const std::string& path) {
  const MpiFile file(comm, path, MpiFile::Mode::read);
  std::string text, message;
  ErrorCode code = ErrorCode::ok;
  try {
    const long long size = file.size();
    const long long r = comm.rank(), R = comm.size();
    const long long begin = size / R * r + std::min(r, size % R), end = size / R * (r + 1) + std::min(r + 1, size % R);
    // The byte range (and the rest of its last line) is held whole: checked before it is.
    message = check_memory(static_cast<double>(end - begin + static_cast<long long>(kOverhang)),
                           "reading '" + path + "' (" + format_bytes(static_cast<double>(size)) + ")",
                           "each rank holds its 1/R-th of the file's bytes: use more ranks, or ranks on more nodes");
    if (!message.empty()) code = ErrorCode::invalid_input;
    else text = lines_starting_in(file, path, size, begin, end, memory_budget_bytes());
  } catch (const Error& e) {
    message = e.what();
    code = e.code();
  } catch (const std::bad_alloc&) {
    message = "reading '" + path + "': out of memory for this rank's byte range: use more ranks";
    code = ErrorCode::invalid_input;
  }
  comm.agree(code, message);
  return text;
}

void write_ordered_text(const Comm& comm, const std::string& path, const std::string& text) {
  const long long offset = comm.exscan_sum(static_cast<long long>(text.size()));
  const MpiFile file(comm, path, MpiFile::Mode::write_truncate);
  std::string message;
  try {
    file.write_at(offset, text.data(), text.size());
  } catch (const Error& e) {
    message = e.what();
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

}  // namespace hpart::detail
