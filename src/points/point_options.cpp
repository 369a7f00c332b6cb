#include "hpart/options.hpp"

#include <string>

#include "hpart/error.hpp"

namespace hpart {

const char* to_string(Method m) {
  switch (m) {
    case Method::hilbert: return "hilbert";
    case Method::morton: return "morton";
  }
  return "unknown";
}

Method method_from_string(const char* name) {
  const std::string s = name ? name : "";
  if (s == "hilbert") return Method::hilbert;
  if (s == "morton") return Method::morton;
  throw Error(ErrorCode::invalid_argument, "unknown method '" + s + "': choose hilbert or morton");
}

}  // namespace hpart
