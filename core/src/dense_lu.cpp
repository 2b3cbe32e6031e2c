#include "daekit/numerics/dense_lu.hpp"

#include <cmath>

#include "lapack.hpp"

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

}  // namespace

template <class Scalar>
bool DenseLUOf<Scalar>::factor() {
  const int n = static_cast<int>(lu_.rows());
  if (n == 0) return true;
  if (const lapack::Routines* l = lapack::routines()) {
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
  // the updates of the pivot rows), so the diagonal is all that needs a look; the model's
  // values are checked where they are evaluated (ProblemView).
  for (int i = 0; i < n; ++i)
    if (!finite(lu_(i, i))) return false;
  return true;
}

template <class Scalar>
void DenseLUOf<Scalar>::solve(const Vector& b, Vector& x) const {
  const int n = static_cast<int>(lu_.rows());
  if (n == 0) {
    if (&x != &b) x = b;
    return;
  }
  if (const lapack::Routines* l = lapack::routines()) {
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
