// Sparse LU, real or complex (Eigen's SparseLU with COLAMD ordering). The pattern is
// analysed once; each factorisation only refreshes the numbers.
#pragma once

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <complex>

namespace daekit {

template <class Scalar>
class SparseLUOf {
 public:
  using Matrix = Eigen::SparseMatrix<Scalar>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  void analyze(const Matrix& pattern);
  bool factor(const Matrix& a);  // false when singular
  void solve(const Vector& b, Vector& x) { x = lu_.solve(b); }

 private:
  Eigen::SparseLU<Matrix, Eigen::COLAMDOrdering<int>> lu_;
  bool analyzed_ = false;
};

using SparseLUSolver = SparseLUOf<double>;
using ComplexSparseLU = SparseLUOf<std::complex<double>>;

extern template class SparseLUOf<double>;
extern template class SparseLUOf<std::complex<double>>;

}  // namespace daekit
