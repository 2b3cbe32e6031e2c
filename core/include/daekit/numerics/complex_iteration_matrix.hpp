// The complex systems of the Radau methods, (alpha + i beta) M - J, with the Jacobian of
// a real IterationMatrix and its shape: dense, or sparse in W's pattern when the problem
// gives one. One object per complex eigenvalue pair of the method's A^-1.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <complex>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/dense_lu.hpp"
#include "daekit/numerics/sparse_lu.hpp"

namespace daekit {

class IterationMatrix;

class ComplexIterationMatrix {
 public:
  // After real.setup(): takes its shape and, for a sparse W, analyses the pattern once.
  void setup(const IterationMatrix& real);
  // alpha M - J with real's present Jacobian, factorised; false when singular.
  bool factor(std::complex<double> alpha);
  void solve(const Eigen::VectorXcd& b, Eigen::VectorXcd& x);

 private:
  const IterationMatrix* real_ = nullptr;
  bool sparse_ = false;
  ComplexDenseLU dense_lu_;
  Eigen::SparseMatrix<std::complex<double>> w_sparse_;
  ComplexSparseLU sparse_lu_;
};

}  // namespace daekit
