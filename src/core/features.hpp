#pragma once
// What a call does when this build of libhpart lacks an optional dependency (HPART_HAVE_* in
// hpart/hpart_version.h): every rank throws the same hpart::Error. The check is a compile-time
// constant, so it is the same on every rank; callers make it after their argument agreement and
// before their first collective that depends on the dependency, so no rank is left waiting.
#include <string>

namespace hpart::detail {

// "hpart was built without METIS: partition_graph (method graph) needs it; reconfigure with
// -DHPART_WITH_METIS=ON". `dependency` is the option's suffix: METIS, HDF5, PNG or HWLOC.
std::string built_without(const char* dependency, const std::string& what);

// Throws Error(unsupported, built_without(dependency, what)) when `have` is false.
void require_dependency(bool have, const char* dependency, const std::string& what);

}  // namespace hpart::detail
