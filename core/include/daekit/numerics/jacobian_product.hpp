// J v for the matrix-free paths (Krylov stage and Newton solves, the Arnoldi projection of
// Rosenbrock-Krylov methods): the problem's jacobian_vector (exact, or an AutoDiffProblem's
// dual pass), else a central difference of f along v (two evaluations), counted as njtv.
// In residual form the product is dF/dy v + cj dF/dy' v. Nothing n x n is formed.
//
// Why central: one step size serves every component of v, whose entries differ by orders
// of magnitude in the tolerances' units; forward differences (error O(sqrt eps)) left
// either the truncation or the round-off too large somewhere. On Robertson's problem at
// rtol 1e-6 (tend 1e11; scd against the test set's reference, their LU runs 2.5 to 3.1):
//   - the columns' increment rule (floor atol/rtol) moved y2 ~ 1e-13 by 1e-12: bdf,
//     rodas4 and rok4a ended with y1 100 % wrong (scd 0.0, -1.4, -1.3), as CVODE with
//     its own difference quotient (one weighted unit along v) does (0.01);
//   - a floor of atol moved y2 by 1e-16 but y1 ~ 1 by 1e-12, below the constraint row's
//     round-off in the DAE form: bdf stalled at h = 1e-13;
//   - central differences at eps^(1/3) with the atol floor: bdf 2.4, rodas4 3.1, rok4a
//     2.3, and the DAE and residual forms 3.0 and 2.5; at rtol 1e-10 rodas4 7.1 (LU 7.6).
// The Rosenbrock family needs it most: a stage goes into y as it is solved, with the J it
// was solved with, and its error estimate does not see a wrong J in the stiff components
// (ros34pw2, a W-method, lost 1.5 to 3 digits against its LU with forward differences).
#pragma once

#include <Eigen/Core>

#include "daekit/eigen_abi.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

class JacobianProduct {
 public:
  using ConstRef = Eigen::Ref<const Eigen::VectorXd>;
  using Ref = Eigen::Ref<Eigen::VectorXd>;

  // mass_form: M y' = f (J = df/dy); else the residual form F(t, y, y') = 0.
  void setup(ProblemView& problem, const SolveRequest& request, bool mass_form);
  // The point of the products that follow: (t, y, y') (y' and cj for the residual form
  // only). The vectors are the caller's and must outlive the products.
  void at(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj);
  Eval apply(ConstRef v, Ref out);
  // Whether a product costs evaluations of f (no exact J v from the problem).
  bool by_differences() const;

 private:
  double increment(ConstRef v) const;  // of the difference along v
  Eval evaluate_at(double sigma, ConstRef v, Ref value);  // f or F at y + sigma v

  ProblemView* problem_ = nullptr;
  bool mass_form_ = true;
  const PerComponent* atol_ = nullptr;  // the request's, which outlives the solve
  Eigen::VectorXd y_work_, yp_work_, f_back_;
  double t_ = 0.0, cj_ = 0.0;
  const Eigen::VectorXd *y_ = nullptr, *yp_ = nullptr;
};

}  // namespace daekit
