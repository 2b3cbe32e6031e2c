// Dense LU with partial pivoting (Eigen), reusing its storage between
// factorisations so that the step loop does not allocate. A zero or non-finite
// pivot marks the matrix singular, as LAPACK's getrf and Hairer's DEC do.
#pragma once

#include <Eigen/Dense>

namespace daekit {

class DenseLU {
 public:
  bool factor(const Eigen::MatrixXd& a);
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const { x.noalias() = lu_.solve(b); }

 private:
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

}  // namespace daekit
