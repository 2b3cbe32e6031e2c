#include <cmath>

#include "daekit/numerics/dense_lu.hpp"
#include "daekit/numerics/sparse_lu.hpp"

namespace daekit {

bool DenseLU::factor(const Eigen::MatrixXd& a) {
  lu_.compute(a);
  const auto& lu = lu_.matrixLU();
  for (Eigen::Index i = 0; i < lu.rows(); ++i) {
    double p = lu(i, i);
    if (p == 0.0 || !std::isfinite(p)) return false;
  }
  return true;
}

void SparseLUSolver::analyze(const Eigen::SparseMatrix<double>& pattern) {
  lu_.analyzePattern(pattern);
  analyzed_ = true;
}

bool SparseLUSolver::factor(const Eigen::SparseMatrix<double>& a) {
  if (!analyzed_) analyze(a);
  lu_.factorize(a);
  return lu_.info() == Eigen::Success;
}

}  // namespace daekit
