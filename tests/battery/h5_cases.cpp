// battery_h5_cases DIR: writes the battery's structural HDF5 inputs into DIR, one file per case,
// each a well-formed HDF5 file whose content is wrong (or awkward) for hpart: shapes, types, rows
// declared by the billion in a chunked dataset that takes a few bytes, values a reader must
// refuse, and valid files that leave a rank without rows. The byte-level mutations (truncation,
// bit flips) are made by the Python generator from files that `hpart` itself wrote; these are the
// shapes a byte mutation cannot reach. Serial HDF5 (no MPI-IO): one process writes every file.
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<hsize_t>;

// A dataset `name` of `dims` and file type `type`, holding `values` (converted from `mem`), or
// unwritten (fill value 0) when `values` is null: then it is chunked, so that a declared shape of
// 2^40 rows costs a few bytes of file.
bool g_failed = false;  // a dataset could not be written: the case list needs fixing

void put(hid_t file, const char* name, hid_t type, const Dims& dims, hid_t mem, const void* values) {
  const hid_t space = dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_obj_track_times(dcpl, false);  // no timestamps: the same bytes on every run
  const bool empty = std::find(dims.begin(), dims.end(), hsize_t{0}) != dims.end();
  if (values == nullptr && !dims.empty() && !empty) {
    Dims chunk(dims.size(), 1);
    chunk.back() = std::min<hsize_t>(dims.back(), 64);
    H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
  }
  const hid_t ds = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  g_failed |= ds < 0 || (values != nullptr && H5Dwrite(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0);
  if (ds >= 0) H5Dclose(ds);
  H5Pclose(dcpl);
  H5Sclose(space);
}

void doubles(hid_t f, const char* name, const Dims& dims, const std::vector<double>& v) {
  put(f, name, H5T_IEEE_F64LE, dims, H5T_NATIVE_DOUBLE, v.data());
}

template <class T>
void integers(hid_t f, const char* name, hid_t file_type, hid_t mem_type, const Dims& dims, const std::vector<T>& v) {
  put(f, name, file_type, dims, mem_type, v.data());
}

// Deterministic coordinates in [0, 1): n points of `dim` columns.
std::vector<double> coords(std::size_t n, std::size_t dim) {
  std::vector<double> v(n * dim);
  std::uint64_t s = 12345;
  for (double& x : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<double>(s >> 11) / 9007199254740992.0;
  }
  return v;
}

std::vector<double> filled(std::size_t n, double value) { return std::vector<double>(n, value); }

std::vector<double> with(std::vector<double> v, std::size_t at, double value) {
  v[at] = value;
  return v;
}

void fixed_strings(hid_t f, const char* name, hsize_t n) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, 8);
  std::vector<char> text(n * 8, 'x');
  put(f, name, type, {n}, type, text.data());
  H5Tclose(type);
}

struct Case {
  const char* name;
  std::function<void(hid_t)> write;
};

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr hsize_t kN = 12;  // rows of the ordinary point files

void pts2(hid_t f) { doubles(f, "/points", {kN, 2}, coords(kN, 2)); }
void pts3(hid_t f) { doubles(f, "/points", {kN, 3}, coords(kN, 3)); }

// A cost field of `dims` cells, every one `value`.
void grid(hid_t f, const Dims& dims, double value) {
  hsize_t cells = 1;
  for (const hsize_t d : dims) cells *= d;
  doubles(f, "/cost", dims, filled(cells, value));
}

std::vector<Case> cases() {
  std::vector<Case> c = {
      // Points: valid files that leave ranks without rows (issue 20: a rank with zero rows hung).
      {"points_ok_2d", pts2},
      {"points_one_row", [](hid_t f) { doubles(f, "/points", {1, 2}, {0.5, 0.5}); }},
      {"points_two_rows_3d", [](hid_t f) { doubles(f, "/points", {2, 3}, coords(2, 3)); }},
      {"points_one_row_weighted", [](hid_t f) {
         doubles(f, "/points", {1, 3}, {0.1, 0.2, 0.3});
         doubles(f, "/weights", {1}, {2.5});
       }},
      {"points_int32", [](hid_t f) {
         integers<std::int32_t>(f, "/points", H5T_STD_I32LE, H5T_NATIVE_INT32, {4, 2}, {0, 0, 1, 0, 0, 1, 1, 1});
       }},
      {"points_float32", [](hid_t f) {
         const std::vector<float> v{0.f, 0.f, 1.f, 0.f, 0.f, 1.f, 1.f, 1.f};
         put(f, "/points", H5T_IEEE_F32LE, {4, 2}, H5T_NATIVE_FLOAT, v.data());
       }},
      {"points_identical", [](hid_t f) { doubles(f, "/points", {kN, 2}, filled(2 * kN, 0.25)); }},
      // Datasets never written (chunked, no storage: they read as the fill value 0), with fewer
      // rows than ranks: HDF5 skipped the collective read on the ranks with rows only (a hang).
      {"points_unwritten_1_row", [](hid_t f) { put(f, "/points", H5T_IEEE_F64LE, {1, 3}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"weights_unwritten_1_row", [](hid_t f) {
         doubles(f, "/points", {1, 2}, {0.5, 0.5});
         put(f, "/weights", H5T_IEEE_F64LE, {1}, H5T_NATIVE_DOUBLE, nullptr);
       }},
      {"ids_unwritten_2_rows", [](hid_t f) {
         doubles(f, "/points", {2, 2}, {0.5, 0.5, 0.25, 0.25});
         put(f, "/ids", H5T_STD_I64LE, {2}, H5T_NATIVE_INT64, nullptr);
       }},
      {"cost_unwritten_2_rows", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {2, 8}, H5T_NATIVE_DOUBLE, nullptr); }},
      // Points: shapes.
      {"points_zero_rows", [](hid_t f) { put(f, "/points", H5T_IEEE_F64LE, {0, 2}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"points_1d", [](hid_t f) { doubles(f, "/points", {kN}, coords(kN, 1)); }},
      {"points_n_x_1", [](hid_t f) { doubles(f, "/points", {kN, 1}, coords(kN, 1)); }},
      {"points_n_x_4", [](hid_t f) { doubles(f, "/points", {kN, 4}, coords(kN, 4)); }},
      {"points_n_x_0", [](hid_t f) { put(f, "/points", H5T_IEEE_F64LE, {kN, 0}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"points_3d_array", [](hid_t f) { doubles(f, "/points", {kN, 2, 2}, coords(kN, 4)); }},
      {"points_scalar", [](hid_t f) { doubles(f, "/points", {}, {1.0}); }},
      {"points_strings", [](hid_t f) { fixed_strings(f, "/points", kN); }},
      {"points_group", [](hid_t f) { H5Gclose(H5Gcreate2(f, "/points", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)); }},
      {"points_missing", [](hid_t f) { doubles(f, "/coords", {kN, 2}, coords(kN, 2)); }},
      {"points_nested", [](hid_t f) {
         H5Gclose(H5Gcreate2(f, "/data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
         doubles(f, "/data/points", {kN, 2}, coords(kN, 2));
       }},
      // Points: sizes declared, not stored (issue 20: 2^31 rows ended in bad_alloc).
      {"points_2e31_rows", [](hid_t f) { put(f, "/points", H5T_IEEE_F64LE, {hsize_t{1} << 31, 3}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"points_2e40_rows", [](hid_t f) { put(f, "/points", H5T_IEEE_F64LE, {hsize_t{1} << 40, 2}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"points_2e62_rows", [](hid_t f) { put(f, "/points", H5T_IEEE_F64LE, {(hsize_t{1} << 62) + 1, 2}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"points_weights_2e31_rows", [](hid_t f) {
         pts2(f);
         put(f, "/weights", H5T_IEEE_F64LE, {hsize_t{1} << 31}, H5T_NATIVE_DOUBLE, nullptr);
       }},
      // Points: values.
      {"points_nan", [](hid_t f) { doubles(f, "/points", {kN, 2}, with(coords(kN, 2), 17, kNan)); }},
      {"points_inf_first", [](hid_t f) { doubles(f, "/points", {kN, 3}, with(coords(kN, 3), 0, -kInf)); }},
      {"points_huge", [](hid_t f) { doubles(f, "/points", {kN, 2}, with(with(coords(kN, 2), 3, 1e308), 4, -1e308)); }},
      {"points_denormal", [](hid_t f) { doubles(f, "/points", {kN, 2}, with(coords(kN, 2), 5, 4.9e-324)); }},
      // Weights.
      {"weights_short", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN - 1}, filled(kN - 1, 1.0)); }},
      {"weights_long", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN + 1}, filled(kN + 1, 1.0)); }},
      {"weights_ncon2", [](hid_t f) { pts3(f); doubles(f, "/weights", {kN, 2}, filled(2 * kN, 2.0)); }},
      {"weights_n_x_0", [](hid_t f) { pts2(f); put(f, "/weights", H5T_IEEE_F64LE, {kN, 0}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"weights_3d", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN, 1, 1}, filled(kN, 1.0)); }},
      {"weights_nan", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, with(filled(kN, 1.0), 7, kNan)); }},
      {"weights_inf", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, with(filled(kN, 1.0), kN - 1, kInf)); }},
      {"weights_negative", [](hid_t f) { pts3(f); doubles(f, "/weights", {kN}, with(filled(kN, 1.0), 2, -1.0)); }},
      {"weights_all_zero", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, filled(kN, 0.0)); }},
      {"weights_1e308", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, filled(kN, 1e308)); }},
      {"weights_1e300_mixed", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, with(filled(kN, 1.0), 3, 1e300)); }},
      {"weights_1e-300", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, filled(kN, 1e-300)); }},
      {"weights_denormal", [](hid_t f) { pts2(f); doubles(f, "/weights", {kN}, with(filled(kN, 1.0), 0, 4.9e-324)); }},
      {"weights_int64_2e62", [](hid_t f) {
         pts2(f);
         integers<std::int64_t>(f, "/weights", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN}, std::vector<std::int64_t>(kN, std::int64_t{1} << 62));
       }},
      {"weights_strings", [](hid_t f) { pts2(f); fixed_strings(f, "/weights", kN); }},
      {"weights_group", [](hid_t f) {
         pts2(f);
         H5Gclose(H5Gcreate2(f, "/weights", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
       }},
      // Ids (issue 20: uint64 ids >= 2^63 were clamped; duplicates accepted).
      {"ids_ok_shuffled", [](hid_t f) {
         pts2(f);
         std::vector<std::int64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = static_cast<std::int64_t>((i * 5 + 3) % kN) * 1000;
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN}, v);
       }},
      {"ids_duplicate", [](hid_t f) {
         pts2(f);
         std::vector<std::int64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = static_cast<std::int64_t>(i);
         v[kN - 1] = 0;
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN}, v);
       }},
      {"ids_all_same_identical_points", [](hid_t f) {
         doubles(f, "/points", {kN, 2}, filled(2 * kN, 0.5));
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN}, std::vector<std::int64_t>(kN, 7));
       }},
      {"ids_uint64_2e63", [](hid_t f) {
         pts2(f);
         std::vector<std::uint64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = (std::uint64_t{1} << 63) + i;
         integers(f, "/ids", H5T_STD_U64LE, H5T_NATIVE_UINT64, {kN}, v);
       }},
      {"ids_uint64_max", [](hid_t f) {
         pts2(f);
         std::vector<std::uint64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = i;
         v[kN / 2] = std::numeric_limits<std::uint64_t>::max();
         integers(f, "/ids", H5T_STD_U64LE, H5T_NATIVE_UINT64, {kN}, v);
       }},
      {"ids_negative", [](hid_t f) {
         pts2(f);
         std::vector<std::int64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = static_cast<std::int64_t>(i) - 3;
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN}, v);
       }},
      {"ids_int64_max", [](hid_t f) {
         pts2(f);
         std::vector<std::int64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(i);
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN}, v);
       }},
      {"ids_float", [](hid_t f) { pts2(f); doubles(f, "/ids", {kN}, coords(kN, 1)); }},
      {"ids_short", [](hid_t f) {
         pts2(f);
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN - 2}, std::vector<std::int64_t>(kN - 2, 1));
       }},
      {"ids_2d", [](hid_t f) {
         pts2(f);
         std::vector<std::int64_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = static_cast<std::int64_t>(i);
         integers(f, "/ids", H5T_STD_I64LE, H5T_NATIVE_INT64, {kN, 1}, v);
       }},
      {"ids_uint8", [](hid_t f) {
         pts2(f);
         std::vector<std::uint8_t> v(kN);
         for (std::size_t i = 0; i < kN; ++i) v[i] = static_cast<std::uint8_t>(250 - i);
         integers(f, "/ids", H5T_STD_U8LE, H5T_NATIVE_UINT8, {kN}, v);
       }},
      // Grid cost fields (issue 20: a slowest dimension smaller than the rank count hung).
      {"cost_ok", [](hid_t f) { doubles(f, "/cost", {8, 10}, coords(80, 1)); }},
      {"cost_1_row", [](hid_t f) { grid(f, {1, 50}, 1.0); }},
      {"cost_2_rows", [](hid_t f) { grid(f, {2, 50}, 1.0); }},
      {"cost_1x1", [](hid_t f) { grid(f, {1, 1}, 3.0); }},
      {"cost_1x1x1", [](hid_t f) { grid(f, {1, 1, 1}, 3.0); }},
      {"cost_2x3x4", [](hid_t f) { grid(f, {2, 3, 4}, 1.0); }},
      {"cost_1d", [](hid_t f) { grid(f, {100}, 1.0); }},
      {"cost_4d", [](hid_t f) { grid(f, {2, 2, 2, 2}, 1.0); }},
      {"cost_scalar", [](hid_t f) { doubles(f, "/cost", {}, {1.0}); }},
      {"cost_zero_rows", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {0, 5}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"cost_zero_cols", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {5, 0}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"cost_nan", [](hid_t f) { doubles(f, "/cost", {6, 7}, with(filled(42, 1.0), 40, kNan)); }},
      {"cost_negative", [](hid_t f) { doubles(f, "/cost", {3, 4, 5}, with(filled(60, 1.0), 59, -2.0)); }},
      {"cost_inf", [](hid_t f) { doubles(f, "/cost", {6, 7}, with(filled(42, 1.0), 0, kInf)); }},
      {"cost_all_zero", [](hid_t f) { grid(f, {6, 7}, 0.0); }},
      {"cost_1e308", [](hid_t f) { grid(f, {6, 7}, 1e308); }},
      {"cost_1e-300", [](hid_t f) { grid(f, {6, 7}, 1e-300); }},
      {"cost_one_hot", [](hid_t f) { doubles(f, "/cost", {6, 7}, with(filled(42, 0.0), 20, 1e6)); }},
      {"cost_int32", [](hid_t f) {
         integers<std::int32_t>(f, "/cost", H5T_STD_I32LE, H5T_NATIVE_INT32, {4, 4}, std::vector<std::int32_t>(16, 2));
       }},
      {"cost_uint64_max", [](hid_t f) {
         integers<std::uint64_t>(f, "/cost", H5T_STD_U64LE, H5T_NATIVE_UINT64, {4, 4},
                                 std::vector<std::uint64_t>(16, std::numeric_limits<std::uint64_t>::max()));
       }},
      {"cost_strings", [](hid_t f) { fixed_strings(f, "/cost", 16); }},
      {"cost_2e31_rows", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {hsize_t{1} << 31, 4}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"cost_2e20_square", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {hsize_t{1} << 20, hsize_t{1} << 20}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"cost_extent_2e22", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {2, hsize_t{1} << 22}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"cost_extent_2e60", [](hid_t f) { put(f, "/cost", H5T_IEEE_F64LE, {2, hsize_t{1} << 60}, H5T_NATIVE_DOUBLE, nullptr); }},
      {"cost_group", [](hid_t f) { H5Gclose(H5Gcreate2(f, "/cost", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)); }},
      {"cost_empty_file", [](hid_t) {}},
  };
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: battery_h5_cases DIR (writes DIR/h5_<case>.h5 and lists the cases)\n");
    return 1;
  }
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  for (const Case& c : cases()) {
    const std::string path = std::string(argv[1]) + "/h5_" + c.name + ".h5";
    const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
      std::fprintf(stderr, "battery_h5_cases: cannot create %s\n", path.c_str());
      return 1;
    }
    c.write(f);
    H5Fclose(f);
    if (g_failed) {
      std::fprintf(stderr, "battery_h5_cases: cannot write the datasets of %s\n", path.c_str());
      return 1;
    }
    std::printf("%s\n", c.name);
  }
  return 0;
}
