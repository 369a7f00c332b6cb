// XDMF 2 text for hpart's HDF5 files, written by rank 0 alone: it is a few hundred bytes that
// only name datasets and shapes, so it needs neither MPI-IO nor any data from other ranks.
#include "io/xdmf.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include "hpart/hdf5.hpp"

namespace hpart {

std::string xdmf_path(const std::string& path) {
  return std::filesystem::path(path).replace_extension(".xmf").string();
}

namespace detail {
namespace {

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A DataItem reading `dataset` of the HDF5 file; dims slowest first, as in HDF5.
std::string hdf_item(const std::string& h5, const std::string& dataset, const std::string& dims, const char* type,
                     int precision) {
  return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + type + "\" Precision=\"" +
         std::to_string(precision) + "\" Format=\"HDF\">" + xml_escaped(h5) + ":" + dataset + "</DataItem>";
}

std::string attribute(const std::string& name, const char* center, const std::string& item) {
  return "      <Attribute Name=\"" + name + "\" AttributeType=\"Scalar\" Center=\"" + center + "\">\n        " + item +
         "\n      </Attribute>\n";
}

std::string document(const std::string& grid_name, const std::string& body) {
  return "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"2.0\">\n  <Domain>\n"
         "    <Grid Name=\"" + grid_name + "\" GridType=\"Uniform\">\n" + body + "    </Grid>\n  </Domain>\n</Xdmf>\n";
}

}  // namespace

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string xdmf_points(const XdmfPoints& d) {
  const std::string n = std::to_string(d.n);
  std::string body = "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" + n + "\" NodesPerElement=\"1\"/>\n";
  body += std::string("      <Geometry GeometryType=\"") + (d.dim == 2 ? "XY" : "XYZ") + "\">\n        " +
          hdf_item(d.h5_name, "/points", n + " " + std::to_string(d.dim), "Float", 8) + "\n      </Geometry>\n";
  if (d.parts) body += attribute("parts", "Node", hdf_item(d.h5_name, "/parts", n, "Int", 4));
  if (d.ids) body += attribute("id", "Node", hdf_item(d.h5_name, "/ids", n, "Int", 8));
  if (d.weighted && d.ncon == 1) body += attribute("weight", "Node", hdf_item(d.h5_name, "/weights", n, "Float", 8));
  if (d.weighted && d.ncon > 1) {
    // The balanced weight is column 0 of /weights (N x ncon): a hyperslab of start, stride, count.
    const std::string slab = "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" + n + " 1\">\n          " +
                             "<DataItem Dimensions=\"3 2\" Format=\"XML\">0 0 1 1 " + n + " 1</DataItem>\n          " +
                             hdf_item(d.h5_name, "/weights", n + " " + std::to_string(d.ncon), "Float", 8) +
                             "\n        </DataItem>";
    body += attribute("weight", "Node", slab);
  }
  return document("points", body);
}

std::string xdmf_grid(const XdmfGrid& d) {
  // XDMF lists dimensions slowest first (z y x), like the HDF5 datasets; the mesh has one more
  // node than cells per dimension.
  std::string nodes, cells, origin, spacing;
  for (int a = d.dim - 1; a >= 0; --a) {
    const std::string sep = a == d.dim - 1 ? "" : " ";
    nodes += sep + std::to_string(d.extent[a] + 1);
    cells += sep + std::to_string(d.extent[a]);
    origin += sep + "0";
    spacing += sep + "1";
  }
  const std::string mesh = d.dim == 2 ? "2DCoRectMesh" : "3DCoRectMesh";
  std::string body = "      <Topology TopologyType=\"" + mesh + "\" Dimensions=\"" + nodes + "\"/>\n";
  body += std::string("      <Geometry GeometryType=\"") + (d.dim == 2 ? "ORIGIN_DXDY" : "ORIGIN_DXDYDZ") + "\">\n" +
          "        <DataItem Dimensions=\"" + std::to_string(d.dim) + "\" NumberType=\"Float\" Format=\"XML\">" + origin +
          "</DataItem>\n" + "        <DataItem Dimensions=\"" + std::to_string(d.dim) +
          "\" NumberType=\"Float\" Format=\"XML\">" + spacing + "</DataItem>\n      </Geometry>\n";
  body += attribute("parts", "Cell", hdf_item(d.h5_name, "/parts", cells, "Int", 4));
  if (d.cost) body += attribute("cost", "Cell", hdf_item(d.h5_name, "/cost", cells, "Float", 8));
  return document("grid", body);
}

void write_xdmf(const Comm& comm, const std::string& h5_path, const std::string& text) {
  std::string message;
  if (comm.rank() == 0) {
    const std::string path = xdmf_path(h5_path);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) message = "cannot write '" + path + "' (the XDMF description of '" + h5_path + "')";
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

}  // namespace detail
}  // namespace hpart
