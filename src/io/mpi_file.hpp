#pragma once
// A thin RAII wrapper over MPI_File for hpart's readers and writers. Opening is collective and
// agreed: a file that cannot be opened throws the same hpart::Error on every rank instead of
// leaving some ranks waiting in a later collective. Reads and writes are split into pieces below
// 2^30 bytes because MPI counts are ints.
#include <mpi.h>

#include <cstddef>
#include <string>

#include "hpart/comm.hpp"

namespace hpart::detail {

class MpiFile {
 public:
  enum class Mode { read, write_truncate };
  MpiFile(const Comm& comm, const std::string& path, Mode mode);
  ~MpiFile();
  MpiFile(const MpiFile&) = delete;
  MpiFile& operator=(const MpiFile&) = delete;

  [[nodiscard]] long long size() const;
  // Independent (non-collective) positioned I/O. read_at returns the bytes actually read
  // (fewer at the end of the file); a failing call throws, but only on the calling rank, so
  // callers record the failure and agree on it.
  std::size_t read_at(long long offset, char* buffer, std::size_t bytes) const;
  void write_at(long long offset, const char* buffer, std::size_t bytes) const;

 private:
  MPI_File file_ = MPI_FILE_NULL;
  std::string path_;
};

std::string mpi_error_string(int code);

// Collective: opens `path` and returns the lines that start in this rank's 1/R-th of its bytes
// (rank r: [r S/R, (r+1) S/R) plus the rest of its last line), so that every line of the file is
// read by exactly one rank, in rank order, with no communication. A file that cannot be opened
// or read throws the same hpart::Error (io) on every rank.
std::string read_rank_lines(const Comm& comm, const std::string& path);

// Collective: writes the ranks' `text` one after another (rank order) into `path`, replacing it.
void write_ordered_text(const Comm& comm, const std::string& path, const std::string& text);

}  // namespace hpart::detail
