// A graph file of any format, picked by its content (rank 0 reads the first bytes and broadcasts
// them, so every rank picks the same reader), else by its extension.
#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include "hpart/graph.hpp"
#include "hpart/graph_io.hpp"
#include "io/mpi_file.hpp"

namespace hpart {

GraphFile read_graph(const Comm& comm, const std::string& path) {
  char head[16] = {};
  {
    const detail::MpiFile file(comm, path, detail::MpiFile::Mode::read);
    std::string message;
    if (comm.rank() == 0) try {
        file.read_at(0, head, sizeof head);
      } catch (const Error& e) {
        message = e.what();
      }
    comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  }
  MPI_Bcast(head, sizeof head, MPI_CHAR, 0, comm.get());
  std::string ext = path.substr(std::min(path.size(), path.find_last_of('.') == std::string::npos ? path.size() : path.find_last_of('.') + 1));
  if (ext.find('/') != std::string::npos) ext.clear();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (std::memcmp(head, kBinaryGraphMagic, 8) == 0 || ext == "hgraph") return read_graph_binary(comm, path);
  if (std::memcmp(head, "%%MatrixMarket", 14) == 0 || ext == "mtx") return read_graph_matrix_market(comm, path);
  if (ext == "chaco") return read_graph_chaco(comm, path);
  return read_graph_metis(comm, path);
}

}  // namespace hpart
