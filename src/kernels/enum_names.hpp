#pragma once
// The names of an option enum, one table per enum: to_string and *_from_string both read it, so
// they cannot disagree, and an unknown name is answered with the list of the known ones.
#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "hpart/error.hpp"

namespace hpart::detail {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<E, const char*>, N>;

// "?" for a value outside the table (an out-of-range cast).
template <class E, std::size_t N>
const char* enum_name(const EnumNames<E, N>& names, E value) {
  for (const auto& [e, name] : names)
    if (e == value) return name;
  return "?";
}

// Throws invalid_argument "unknown <what> 'name' (available: a, b, c)".
template <class E, std::size_t N>
E enum_from_name(const EnumNames<E, N>& names, const char* name, const char* what) {
  const std::string given = name ? name : "";
  std::string available;
  for (const auto& [e, known] : names) {
    if (given == known) return e;
    available += (available.empty() ? "" : ", ") + std::string(known);
  }
  throw Error(ErrorCode::invalid_argument,
              "unknown " + std::string(what) + " '" + given + "' (available: " + available + ")");
}

}  // namespace hpart::detail
