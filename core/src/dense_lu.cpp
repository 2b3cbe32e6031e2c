#include "daekit/numerics/dense_lu.hpp"

#include <cmath>

#include "lapack.hpp"

// Present only when the LAPACK is OpenBLAS's.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace daekit {

namespace {

// One thread: the matrices are small (n up to a few thousand), factorisations happen inside
// a step loop, and benchmark runs share the machine; threads would cost more than they give.
void use_one_blas_thread() {
  static const bool done = [] {
    if (openblas_set_num_threads) openblas_set_num_threads(1);
    return true;
  }();
  (void)done;
}

void getrf(int n, double* a, int* ipiv, int* info) { dgetrf_(&n, &n, a, &n, ipiv, info); }
void getrf(int n, std::complex<double>* a, int* ipiv, int* info) { zgetrf_(&n, &n, a, &n, ipiv, info); }
void getrs(int n, const double* a, const int* ipiv, double* b, int* info) {
  const int one = 1;
  dgetrs_("N", &n, &one, a, &n, ipiv, b, &n, info, 1);
}
void getrs(int n, const std::complex<double>* a, const int* ipiv, std::complex<double>* b, int* info) {
  const int one = 1;
  zgetrs_("N", &n, &one, a, &n, ipiv, b, &n, info, 1);
}

bool finite(double x) { return std::isfinite(x); }
bool finite(std::complex<double> x) { return std::isfinite(x.real()) && std::isfinite(x.imag()); }

}  // namespace

template <class Scalar>
bool DenseLUOf<Scalar>::factor() {
  const int n = static_cast<int>(lu_.rows());
  if (n == 0) return true;
  use_one_blas_thread();
  pivots_.resize(static_cast<std::size_t>(n));
  int info = 0;
  getrf(n, lu_.data(), pivots_.data(), &info);
  if (info != 0) return false;  // info > 0: an exactly zero pivot
  // A NaN or Inf anywhere in the matrix reaches U's diagonal (through the multipliers or
  // the updates of the pivot rows), so the diagonal is all that needs a look; the model's
  // values are checked where they are evaluated (ProblemView).
  for (int i = 0; i < n; ++i)
    if (!finite(lu_(i, i))) return false;
  return true;
}

template <class Scalar>
void DenseLUOf<Scalar>::solve(const Vector& b, Vector& x) const {
  const int n = static_cast<int>(lu_.rows());
  if (&x != &b) x = b;
  if (n == 0) return;
  int info = 0;
  getrs(n, lu_.data(), pivots_.data(), x.data(), &info);
}

template class DenseLUOf<double>;
template class DenseLUOf<std::complex<double>>;

}  // namespace daekit
