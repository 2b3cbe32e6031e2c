#include "daekit/numerics/complex_iteration_matrix.hpp"

#include "daekit/numerics/iteration_matrix.hpp"

namespace daekit {

void ComplexIterationMatrix::setup(const IterationMatrix& real) {
  real_ = &real;
  sparse_ = real.sparse();
  if (sparse_) {
    w_sparse_ = real.sparse_w().cast<std::complex<double>>();
    sparse_lu_.set_ordering(real.ordering());
    sparse_lu_.set_factoriser(real.factoriser());
    sparse_lu_.analyze(w_sparse_);
  } else {
    dense_lu_.matrix().resize(real.dense_w().rows(), real.dense_w().cols());
  }
}

bool ComplexIterationMatrix::factor(std::complex<double> alpha) {
  if (sparse_) {
    real_->assemble_into(alpha, w_sparse_);
    return sparse_lu_.factor(w_sparse_);
  }
  real_->assemble_into(alpha, dense_lu_.matrix());
  return dense_lu_.factor();
}

void ComplexIterationMatrix::solve(const Eigen::VectorXcd& b, Eigen::VectorXcd& x) {
  if (sparse_)
    sparse_lu_.solve(b, x);
  else
    dense_lu_.solve(b, x);
}

}  // namespace daekit
