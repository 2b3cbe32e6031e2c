// Sparse LU (Eigen's SparseLU with COLAMD ordering). The pattern is analysed once;
// each factorisation only refreshes the numbers.
#pragma once

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

namespace daekit {

class SparseLUSolver {
 public:
  void analyze(const Eigen::SparseMatrix<double>& pattern);
  bool factor(const Eigen::SparseMatrix<double>& a);
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) { x = lu_.solve(b); }

 private:
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  bool analyzed_ = false;
};

}  // namespace daekit
