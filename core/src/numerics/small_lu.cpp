#include "small_lu.hpp"

#include <cmath>
#include <cstddef>
#include <utility>

// Each function below is compiled twice, for x86-64's baseline and for AVX2, and the
// dynamic loader picks the variant for the CPU once (GCC's function multiversioning): the
// portable build otherwise vectorises these loops two doubles wide. AVX2 without FMA, and
// this file built with -ffp-contract=off (core/CMakeLists.txt), so that both variants do
// the same multiplications and subtractions in the same order: the same bits on every CPU.
// 14 % off a real and 16 % off a complex factorisation and two solves at n = 24 here.
// (tests/unit/test_small_lu_variants.cpp compiles this file again with the baseline alone.)
#ifndef DAEKIT_AVX2_CLONE
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define DAEKIT_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define DAEKIT_AVX2_CLONE
#endif
#endif

namespace daekit::small_lu {

namespace {

// 1 / (r + i m) without overflow for large parts (Smith's algorithm).
void reciprocal(double r, double m, double& out_r, double& out_m) {
  if (std::abs(r) >= std::abs(m)) {
    const double q = m / r, d = r + m * q;
    out_r = 1.0 / d;
    out_m = -q / d;
  } else {
    const double q = r / m, d = r * q + m;
    out_r = q / d;
    out_m = -1.0 / d;
  }
}

// The updates skip columns whose entry in the pivot row is zero, so a NaN or Inf
// multiplier need not reach U's diagonal (where DenseLU looks): it is caught here.
bool finite_multipliers(const double* m, int count) {
  double sum = 0.0;
  for (int i = 0; i < count; ++i) sum += m[i] * 0.0;  // NaN unless every m[i] is finite
  return sum == 0.0;
}

}  // namespace

DAEKIT_AVX2_CLONE bool factor(int n, double* a, int* pivots) {
  const std::size_t ld = static_cast<std::size_t>(n);
  for (int k = 0; k < n; ++k) {
    double* col_k = a + k * ld;
    int p = k;
    double largest = std::abs(col_k[k]);
    for (int i = k + 1; i < n; ++i)
      if (std::abs(col_k[i]) > largest) largest = std::abs(col_k[i]), p = i;
    pivots[k] = p;
    if (largest == 0.0) return false;
    if (p != k)
      for (int j = 0; j < n; ++j) std::swap(a[j * ld + k], a[j * ld + p]);
    const double inverse = 1.0 / col_k[k];
    for (int i = k + 1; i < n; ++i) col_k[i] *= inverse;
    if (!finite_multipliers(col_k + k + 1, n - k - 1)) return false;
    for (int j = k + 1; j < n; ++j) {
      double* col_j = a + j * ld;
      const double f = col_j[k];
      if (f == 0.0) continue;
      for (int i = k + 1; i < n; ++i) col_j[i] -= f * col_k[i];
    }
  }
  return true;
}

DAEKIT_AVX2_CLONE void solve(int n, const double* lu, const int* pivots, double* b) {
  const std::size_t ld = static_cast<std::size_t>(n);
  for (int k = 0; k < n; ++k)
    if (pivots[k] != k) std::swap(b[k], b[pivots[k]]);
  for (int k = 0; k < n; ++k) {  // L y = P b, unit diagonal
    const double x = b[k];
    if (x == 0.0) continue;
    const double* col = lu + k * ld;
    for (int i = k + 1; i < n; ++i) b[i] -= x * col[i];
  }
  for (int k = n - 1; k >= 0; --k) {  // U x = y
    const double* col = lu + k * ld;
    b[k] /= col[k];
    const double x = b[k];
    for (int i = 0; i < k; ++i) b[i] -= x * col[i];
  }
}

DAEKIT_AVX2_CLONE bool factor(int n, double* re, double* im, int* pivots) {
  const std::size_t ld = static_cast<std::size_t>(n);
  for (int k = 0; k < n; ++k) {
    double* kr = re + k * ld;
    double* ki = im + k * ld;
    // |re| + |im| as LAPACK's izamax: the same pivots as zgetrf.
    int p = k;
    double largest = std::abs(kr[k]) + std::abs(ki[k]);
    for (int i = k + 1; i < n; ++i) {
      const double size = std::abs(kr[i]) + std::abs(ki[i]);
      if (size > largest) largest = size, p = i;
    }
    pivots[k] = p;
    if (largest == 0.0) return false;
    if (p != k)
      for (int j = 0; j < n; ++j) {
        std::swap(re[j * ld + k], re[j * ld + p]);
        std::swap(im[j * ld + k], im[j * ld + p]);
      }
    double inv_r, inv_i;
    reciprocal(kr[k], ki[k], inv_r, inv_i);
    for (int i = k + 1; i < n; ++i) {
      const double xr = kr[i], xi = ki[i];
      kr[i] = xr * inv_r - xi * inv_i;
      ki[i] = xr * inv_i + xi * inv_r;
    }
    if (!finite_multipliers(kr + k + 1, n - k - 1) || !finite_multipliers(ki + k + 1, n - k - 1)) return false;
    for (int j = k + 1; j < n; ++j) {
      double* jr = re + j * ld;
      double* ji = im + j * ld;
      const double fr = jr[k], fi = ji[k];
      if (fr == 0.0 && fi == 0.0) continue;
      for (int i = k + 1; i < n; ++i) {
        const double tr = fr * kr[i] - fi * ki[i];
        const double ti = fr * ki[i] + fi * kr[i];
        jr[i] -= tr;
        ji[i] -= ti;
      }
    }
  }
  return true;
}

DAEKIT_AVX2_CLONE void solve(int n, const double* re, const double* im, const int* pivots, double* b_re, double* b_im) {
  const std::size_t ld = static_cast<std::size_t>(n);
  for (int k = 0; k < n; ++k)
    if (pivots[k] != k) {
      std::swap(b_re[k], b_re[pivots[k]]);
      std::swap(b_im[k], b_im[pivots[k]]);
    }
  for (int k = 0; k < n; ++k) {
    const double xr = b_re[k], xi = b_im[k];
    if (xr == 0.0 && xi == 0.0) continue;
    const double* cr = re + k * ld;
    const double* ci = im + k * ld;
    for (int i = k + 1; i < n; ++i) {
      b_re[i] -= xr * cr[i] - xi * ci[i];
      b_im[i] -= xr * ci[i] + xi * cr[i];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    const double* cr = re + k * ld;
    const double* ci = im + k * ld;
    double inv_r, inv_i;
    reciprocal(cr[k], ci[k], inv_r, inv_i);
    const double xr = b_re[k] * inv_r - b_im[k] * inv_i;
    const double xi = b_re[k] * inv_i + b_im[k] * inv_r;
    b_re[k] = xr;
    b_im[k] = xi;
    for (int i = 0; i < k; ++i) {
      b_re[i] -= xr * cr[i] - xi * ci[i];
      b_im[i] -= xr * ci[i] + xi * cr[i];
    }
  }
}

}  // namespace daekit::small_lu
