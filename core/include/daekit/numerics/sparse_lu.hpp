// Sparse LU, real or complex. The pattern is analysed once; each factorisation only
// refreshes the numbers. Real: Eigen's SparseLU (COLAMD ordering, supernodal). Complex:
// SuiteSparse's KLU for stencil-like patterns (1.7 times faster on the Radau methods'
// complex systems of the 2D brusselator), Eigen's SparseLU where the pattern is dense
// enough for supernodes to pay (sparse_lu.cpp gives the rule and its measurements).
// The backends live in the .cpp, so that klu.h stays out of the installed headers.
#pragma once

#include <Eigen/SparseCore>
#include <complex>
#include <memory>

namespace daekit {

template <class Scalar>
class SparseLUOf {
 public:
  using Matrix = Eigen::SparseMatrix<Scalar>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  SparseLUOf();
  ~SparseLUOf();
  SparseLUOf(SparseLUOf&&) noexcept;
  SparseLUOf& operator=(SparseLUOf&&) noexcept;

  void analyze(const Matrix& pattern);
  bool factor(const Matrix& a);  // false when singular
  void solve(const Vector& b, Vector& x);

 private:
  struct Backend;
  std::unique_ptr<Backend> backend_;
  bool analyzed_ = false;
};

using SparseLUSolver = SparseLUOf<double>;
using ComplexSparseLU = SparseLUOf<std::complex<double>>;

extern template class SparseLUOf<double>;
extern template class SparseLUOf<std::complex<double>>;

}  // namespace daekit
