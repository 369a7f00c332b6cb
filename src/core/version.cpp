// The version and feature queries (hpart/hpart_version.h for C, hpart/version.hpp for C++), and
// the one message for a call whose optional dependency this build lacks (core/features.hpp).
#include <cctype>
#include <string>

#include "core/features.hpp"
#include "hpart/error.hpp"
#include "hpart/version.hpp"

namespace hpart {

const char* version() { return HPART_VERSION_STRING; }

Features features() {
  return {.metis = HPART_HAVE_METIS != 0,
          .hdf5 = HPART_HAVE_HDF5 != 0,
          .png = HPART_HAVE_PNG != 0,
          .hwloc = HPART_HAVE_HWLOC != 0,
          .kokkos = HPART_HAVE_KOKKOS != 0};
}

std::string features_string() {
  const Features f = features();
  auto mark = [](bool on, const char* name) { return std::string(on ? "+" : "-") + name; };
  return mark(f.metis, "METIS") + " " + mark(f.hdf5, "HDF5") + " " + mark(f.png, "PNG") + " " +
         mark(f.hwloc, "hwloc") + " " + mark(f.kokkos, "Kokkos");
}

namespace detail {

std::string built_without(const char* dependency, const std::string& what) {
  return std::string("hpart was built without ") + dependency + ": " + what + " needs it; reconfigure with -DHPART_WITH_" +
         dependency + "=ON";
}

void require_dependency(bool have, const char* dependency, const std::string& what) {
  if (!have) throw Error(ErrorCode::unsupported, built_without(dependency, what));
}

}  // namespace detail
}  // namespace hpart

// The C entry points: no exception can leave them (nothing in them throws).
extern "C" {

const char* hpart_version(void) { return HPART_VERSION_STRING; }
int hpart_version_major(void) { return HPART_VERSION_MAJOR; }
int hpart_version_minor(void) { return HPART_VERSION_MINOR; }
int hpart_version_patch(void) { return HPART_VERSION_PATCH; }

int hpart_has_feature(const char* name) {
  if (name == nullptr) return 0;
  std::string n;
  for (const char* c = name; *c != '\0' && n.size() < 16; ++c)
    n += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  const hpart::Features f = hpart::features();
  if (n == "metis") return f.metis ? 1 : 0;
  if (n == "hdf5") return f.hdf5 ? 1 : 0;
  if (n == "png") return f.png ? 1 : 0;
  if (n == "hwloc") return f.hwloc ? 1 : 0;
  if (n == "kokkos") return f.kokkos ? 1 : 0;
  return 0;
}
}
