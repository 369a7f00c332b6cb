#pragma once
// The base of the library's scope objects (a pool held open, an error handler silenced): they
// act in their constructor and destructor, so a copy would act twice.
namespace hpart::detail {

class ScopeOnly {
 public:
  ScopeOnly() = default;
  ScopeOnly(const ScopeOnly&) = delete;
  ScopeOnly& operator=(const ScopeOnly&) = delete;
};

}  // namespace hpart::detail
