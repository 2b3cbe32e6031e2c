// The Radau IIA methods with s = 3, 5, 7 stages (orders 5, 9, 13) as data computed once:
// the nodes (zeros of P_s(2x-1) - P_{s-1}(2x-1), c_s = 1), the collocation matrix A, the
// real block form of A^-1 = T diag(gamma, [alpha_k -beta_k; beta_k alpha_k]) T^-1 that
// splits the stage system into one real and (s-1)/2 complex n x n systems, and the
// weights of the embedded error estimate (order s, with the extra weight gamma0 = 1/gamma
// on f(t0, y0), as Hairer & Wanner's RADAU). Nodes and A are computed in long double.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "daekit/eigen_abi.hpp"

namespace daekit {

struct RadauTableau {
  int stages = 0;
  Eigen::VectorXd c;            // nodes, c[s-1] = 1
  Eigen::MatrixXd a;            // collocation matrix A
  Eigen::MatrixXd t, t_inv;     // A^-1 = T Lambda T^-1, Lambda block-diagonal
  double gamma = 0.0;           // the real eigenvalue of A^-1
  std::vector<double> alpha, beta;  // the complex pairs alpha_k +- i beta_k (beta_k > 0)
  Eigen::VectorXd error_weights;    // dd: err = E1^-1 (f0 + M sum_j dd_j/h Z_j), E1 = gamma/h M - J

  // Lagrange basis of the collocation polynomial through (0, 0) and (c_i, Z_i), at theta:
  // u(theta) - y0 = sum_i basis_i(theta) Z_i.
  void basis(double theta, double* out) const;
};

// The tableau with 3, 5 or 7 stages (built on first use, then shared).
const RadauTableau& radau_tableau(int stages);

}  // namespace daekit
