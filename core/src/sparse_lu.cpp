#include "daekit/numerics/sparse_lu.hpp"

namespace daekit {

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
