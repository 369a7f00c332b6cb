#pragma once
// XDMF (eXtensible Data Model and Format, version 2) descriptions of hpart's HDF5 files: a few
// lines of XML that tell ParaView and VisIt which datasets form the mesh and which are fields,
// so a decomposition opens with no conversion step. The heavy data stays in the HDF5 file.
#include <cstdint>
#include <string>

#include "hpart/comm.hpp"

namespace hpart::detail {

// Points as a Polyvertex mesh (one vertex per row of /points) with node-centred attributes.
struct XdmfPoints {
  std::string h5_name;  // the HDF5 file, as the .xmf refers to it (same directory)
  std::int64_t n = 0;
  int dim = 3;
  int ncon = 1;          // columns of /weights
  bool weighted = false;  // /weights present
  bool parts = false;     // /parts present
  bool ids = false;       // /ids present
};
std::string xdmf_points(const XdmfPoints& d);

// A grid of unit cells as a 2DCoRectMesh / 3DCoRectMesh (origin 0, spacing 1) with the
// cell-centred attributes `parts` and, when present, `cost`.
struct XdmfGrid {
  std::string h5_name;
  int dim = 2;
  std::int64_t extent[3] = {1, 1, 1};  // cells per dimension, x y z
  bool cost = false;
};
std::string xdmf_grid(const XdmfGrid& d);

// Collective: rank 0 writes `text` to xdmf_path(h5_path); a failure is agreed (io Error).
void write_xdmf(const Comm& comm, const std::string& h5_path, const std::string& text);

// The file name of `path` (no directories), as an .xmf next to it refers to it.
std::string file_name(const std::string& path);

}  // namespace hpart::detail
