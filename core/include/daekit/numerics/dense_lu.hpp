// Dense LU with partial pivoting, real or complex, through LAPACK's getrf/getrs.
//
// Why LAPACK and not Eigen's PartialPivLU: the Radau methods factor one complex n x n
// matrix per real one, and Eigen's complex kernel is only as fast as the instruction set
// the binary was compiled for (SSE2 in a portable build): 2.1 ms for n = 160 here, where
// OpenBLAS, which picks its kernels for the CPU at run time, takes 0.41 ms (real: 0.23 vs
// 0.15 ms). See the libraries in docs/architecture.md; which LAPACK is opened, and which
// kernel it runs, is numerics/lapack_backend.hpp's business. Small systems (up to 48
// real, 40 complex unknowns) skip LAPACK for written-out loops (core/src/numerics/small_lu.hpp):
// faster there, and the same bits on every CPU.
//
// The storage is kept between factorisations, so that the step loop does not allocate.
// A zero or non-finite pivot marks the matrix singular, as getrf and Hairer's DEC do.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <vector>

#include "daekit/eigen_abi.hpp"

namespace daekit {

template <class Scalar>
class DenseLUOf {
 public:
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  // The matrix to be factored, to be filled in place (saves a copy of n^2 entries) before
  // factor(). Its size must not change between factor() and solve().
  Matrix& matrix() { return lu_; }
  bool factor();
  bool factor(const Matrix& a) {
    lu_ = a;
    return factor();
  }
  // x = A^-1 b; b and x may be the same vector.
  void solve(const Vector& b, Vector& x) const;

 private:
  Matrix lu_;
  std::vector<int> pivots_;  // row interchanges: LAPACK's 1-based, the small loops' 0-based
  Eigen::PartialPivLU<Matrix> fallback_;  // used only where no LAPACK could be opened
};

using DenseLU = DenseLUOf<double>;
using ComplexDenseLU = DenseLUOf<std::complex<double>>;

extern template class DenseLUOf<double>;
extern template class DenseLUOf<std::complex<double>>;

}  // namespace daekit
