#pragma once
// Large arrays that a reader fills once, front to back, are faulted in 4 KiB pages one at a
// time; on virtual machines a page fault costs tens of microseconds, which made page faults,
// not parsing, the larger part of reading a graph (28,000 faults for 111 MB). Asking for
// transparent huge pages on the reserved capacity cuts them 512-fold: the advice of
// core/huge_pages.hpp (the one place that gives it), on a std::vector's reserved capacity.
#include <vector>

#include "core/huge_pages.hpp"

namespace hpart::detail {

template <class T>
void advise_huge_pages(const std::vector<T>& v) {
  graphk::advise_huge_pages(const_cast<T*>(v.data()), v.capacity() * sizeof(T));
}

}  // namespace hpart::detail
