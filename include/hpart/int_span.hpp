#pragma once
// A read-only array of integers lent at 32 or 64 bits, whichever the caller holds: what a code
// with int32 arrays (METIS/ParMETIS idx_t, Fortran default integers, numpy int32) passes as graph
// offsets and weights without a widened copy. Reads come back as int64_t.
#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

namespace hpart {

class IntSpan {
 public:
  constexpr IntSpan() noexcept = default;
  constexpr IntSpan(std::span<const std::int64_t> s) noexcept : wide_(s.data()), size_(s.size()) {}
  constexpr IntSpan(std::span<const std::int32_t> s) noexcept : narrow_(s.data()), size_(s.size()) {}
  // Any contiguous range of int32_t or int64_t (a vector, a span, an array), like std::span.
  template <std::ranges::contiguous_range R>
    requires std::ranges::sized_range<R> &&
             (std::same_as<std::remove_cv_t<std::ranges::range_value_t<R>>, std::int64_t> ||
              std::same_as<std::remove_cv_t<std::ranges::range_value_t<R>>, std::int32_t>) &&
             (!std::same_as<std::remove_cvref_t<R>, IntSpan>)
  constexpr IntSpan(R&& r) noexcept  // NOLINT(bugprone-forwarding-reference-overload): a view, as span
      : IntSpan(std::span<const std::remove_cv_t<std::ranges::range_value_t<R>>>(std::ranges::data(r),
                                                                                 std::ranges::size(r))) {}

  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
  // Whether the values are held at 32 bits.
  [[nodiscard]] constexpr bool is32() const noexcept { return narrow_ != nullptr; }
  [[nodiscard]] constexpr std::int64_t operator[](std::size_t i) const noexcept {
    assert(i < size_);
    return narrow_ != nullptr ? narrow_[i] : wide_[i];
  }
  [[nodiscard]] constexpr std::int64_t back() const noexcept { return (*this)[size_ - 1]; }
  [[nodiscard]] constexpr IntSpan subspan(std::size_t offset, std::size_t count) const noexcept {
    IntSpan s = *this;
    if (narrow_ != nullptr) s.narrow_ += offset; else if (wide_ != nullptr) s.wide_ += offset;
    s.size_ = count;
    return s;
  }
  [[nodiscard]] constexpr IntSpan first(std::size_t count) const noexcept { return subspan(0, count); }
  // The values at their own width (empty when held at the other one).
  [[nodiscard]] constexpr std::span<const std::int64_t> as64() const noexcept {
    return narrow_ != nullptr ? std::span<const std::int64_t>{} : std::span<const std::int64_t>(wide_, size_);
  }
  [[nodiscard]] constexpr std::span<const std::int32_t> as32() const noexcept {
    return narrow_ != nullptr ? std::span<const std::int32_t>(narrow_, size_) : std::span<const std::int32_t>{};
  }
  // Calls f with a std::span of the width held, so that a loop reads the values without a
  // branch per element.
  template <class F>
  constexpr decltype(auto) visit(F&& f) const {
    if (narrow_ != nullptr) return f(as32());
    return f(std::span<const std::int64_t>(wide_, size_));
  }
  // A copy as T (for the places that must own one anyway).
  template <class T = std::int64_t>
  [[nodiscard]] std::vector<T> to_vector() const {
    return visit([](auto s) { return std::vector<T>(s.begin(), s.end()); });
  }

 private:
  const std::int64_t* wide_ = nullptr;
  const std::int32_t* narrow_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace hpart
