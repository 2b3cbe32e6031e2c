#include "daekit/numerics/dense_lu.hpp"

#include <cmath>

#include "lapack.hpp"
#include "small_lu.hpp"

namespace daekit {

namespace {

void getrf(const lapack::Routines& l, int n, double* a, int* ipiv, int* info) { l.dgetrf(&n, &n, a, &n, ipiv, info); }
void getrf(const lapack::Routines& l, int n, std::complex<double>* a, int* ipiv, int* info) {
  l.zgetrf(&n, &n, a, &n, ipiv, info);
}
void getrs(const lapack::Routines& l, int n, const double* a, const int* ipiv, double* b, int* info) {
  const int one = 1;
  l.dgetrs("N", &n, &one, a, &n, ipiv, b, &n, info, 1);
}
void getrs(const lapack::Routines& l, int n, const std::complex<double>* a, const int* ipiv, std::complex<double>* b,
           int* info) {
  const int one = 1;
  l.zgetrs("N", &n, &one, a, &n, ipiv, b, &n, info, 1);
}

bool finite(double x) { return std::isfinite(x); }
bool finite(std::complex<double> x) { return std::isfinite(x.real()) && std::isfinite(x.imag()); }

// Small systems: written-out loops (small_lu.hpp says why). The complex factors are kept
// split in the matrix's own storage, real parts in its first n^2 doubles and imaginary
// parts in the next, so that the class keeps its layout (third-party solvers embed it).
bool is_small(int n, double) { return n <= small_lu::real_limit; }
bool is_small(int n, std::complex<double>) { return n <= small_lu::complex_limit; }

bool factor_small(int n, double* a, int* pivots) { return small_lu::factor(n, a, pivots); }
bool factor_small(int n, std::complex<double>* a, int* pivots) {
  constexpr int m = small_lu::complex_limit;
  double re[m * m], im[m * m];
  const int nn = n * n;
  for (int i = 0; i < nn; ++i) re[i] = a[i].real(), im[i] = a[i].imag();
  const bool ok = small_lu::factor(n, re, im, pivots);
  double* split = reinterpret_cast<double*>(a);
  for (int i = 0; i < nn; ++i) split[i] = re[i], split[nn + i] = im[i];
  return ok;
}

void solve_small(int n, const double* lu, const int* pivots, double* x) { small_lu::solve(n, lu, pivots, x); }
void solve_small(int n, const std::complex<double>* lu, const int* pivots, std::complex<double>* x) {
  constexpr int m = small_lu::complex_limit;
  double re[m], im[m];
  for (int i = 0; i < n; ++i) re[i] = x[i].real(), im[i] = x[i].imag();
  const double* split = reinterpret_cast<const double*>(lu);
  small_lu::solve(n, split, split + n * n, pivots, re, im);
  for (int i = 0; i < n; ++i) x[i] = {re[i], im[i]};
}

// The diagonal of U, wherever the factors are kept.
double diagonal(const Eigen::MatrixXd& lu, int i, bool) { return lu(i, i); }
std::complex<double> diagonal(const Eigen::MatrixXcd& lu, int i, bool small) {
  if (!small) return lu(i, i);
  const int n = static_cast<int>(lu.rows());
  const double* split = reinterpret_cast<const double*>(lu.data());
  return {split[i * n + i], split[n * n + i * n + i]};
}

}  // namespace

template <class Scalar>
bool DenseLUOf<Scalar>::factor() {
  const int n = static_cast<int>(lu_.rows());
  if (n == 0) return true;
  const bool small = is_small(n, Scalar());
  if (small) {
    pivots_.resize(static_cast<std::size_t>(n));
    if (!factor_small(n, lu_.data(), pivots_.data())) return false;
  } else if (const lapack::Routines* l = lapack::routines()) {
    pivots_.resize(static_cast<std::size_t>(n));
    int info = 0;
    getrf(*l, n, lu_.data(), pivots_.data(), &info);
    if (info != 0) return false;  // info > 0: an exactly zero pivot
  } else {
    // No LAPACK on this system: Eigen's blocked LU, as fast as the instruction set the core
    // was compiled for.
    fallback_.compute(lu_);
    lu_ = fallback_.matrixLU();
    for (int i = 0; i < n; ++i)
      if (lu_(i, i) == Scalar(0)) return false;
  }
  // A NaN or Inf anywhere in the matrix reaches U's diagonal (through the multipliers or
  // the updates of the pivot rows; the small loops, which skip zero updates, check their
  // multipliers themselves), so the diagonal is all that needs a look; the model's
  // values are checked where they are evaluated (ProblemView).
  for (int i = 0; i < n; ++i)
    if (!finite(diagonal(lu_, i, small))) return false;
  return true;
}

template <class Scalar>
void DenseLUOf<Scalar>::solve(const Vector& b, Vector& x) const {
  const int n = static_cast<int>(lu_.rows());
  if (n == 0) {
    if (&x != &b) x = b;
    return;
  }
  if (is_small(n, Scalar())) {
    if (&x != &b) x = b;
    solve_small(n, lu_.data(), pivots_.data(), x.data());
  } else if (const lapack::Routines* l = lapack::routines()) {
    if (&x != &b) x = b;
    int info = 0;
    getrs(*l, n, lu_.data(), pivots_.data(), x.data(), &info);
  } else {
    x = fallback_.solve(b);
  }
}

template class DenseLUOf<double>;
template class DenseLUOf<std::complex<double>>;

}  // namespace daekit
