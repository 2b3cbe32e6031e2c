// Forward sensitivities in the BDF family, by the staggered corrector of IDAS (Li &
// Petzold; SUNDIALS' IDA_STAGGERED): each step, once y's Newton iteration has converged,
// the sensitivity equations F_y s + F_y' s' + F_q = 0, linear in s, are solved by the
// same formula, s' = s'_pred + cj (s - s_pred), with the iteration matrix y's step used
// (no new LU). s keeps its own modified divided differences beside y's, predicted,
// corrected, updated and interpolated with the same coefficients, so s is the BDF
// solution of the sensitivity equations on y's steps, of y's order.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/implicit_system.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"

namespace daekit {

class BdfSensitivities {
 public:
  BdfSensitivities(ProblemView& problem, const SolveRequest& request, int max_order);
  Eigen::Index columns() const { return equations_.columns(); }
  // Why this problem's sensitivities cannot be computed here ("" when they can).
  std::string refused() const;

  // s(t0), its algebraic part from the constraints, and s'(t0) from M s' = J s + f_q at
  // y0; false (with why) when they cannot be had.
  bool start(ImplicitSystem& system, double t0, const Eigen::VectorXd& y0, std::string* why);
  // After a restart at an event, at (t, y): s from s+, its algebraic part made
  // consistent, s' anew. "" or why it failed.
  std::string restart_from(ImplicitSystem& system, double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s);
  // The first step after a (re)start: order 1 from s and h s'.
  void restart_history(double h);
  // s_pred and s'_pred from the beta-scaled differences of this attempt.
  void predict(const double* beta, const double* gamma, int order);
  // The corrector at y's converged (t, y, y'): kind ok, or why it failed. With a Krylov
  // system each column's linear solve is held to `linear_tolerance` in that column's norm.
  StepAttempt correct(ImplicitSystem& system, double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                      const ErrorNorm& newton_norm, double h, double tolerance, double linear_tolerance);
  // The largest weighted norm of the columns' corrections (their local error, up to the
  // error constant y's uses).
  double correction_norm(const ErrorNorm& norm, double h);
  // Commit the attempt: the new differences, as y's.
  void accept(int order, int max_order);
  // s at t on the last accepted step (DASSL's interpolation with y's psi); s0 before one.
  void interpolate(double offset, const double* psi, int order_old, Eigen::MatrixXd& out) const;

 private:
  ProblemView& problem_;
  SensitivityEquations equations_;
  int max_order_;
  std::vector<Eigen::MatrixXd> phi_, phi_star_;  // [j]: n x ns, j = 1 .. max_order + 2
  Eigen::MatrixXd s_n_, sp_start_;               // at the last accepted point / the (re)start
  Eigen::MatrixXd s_, sp_, s_pred_, sp_pred_, e_, residual_;
  Eigen::VectorXd r_, delta_, weighted_;
  Eigen::VectorXd magnitude_, column_weights_;
  // The norm of column k's v, pbar_k v weighed as CVODES and IDAS weigh s: y's tolerances
  // applied to pbar_k s_k at the last accepted point, not to y.
  double column_norm(const ErrorNorm& norm, Eigen::Index k, ProblemView::ConstRef v, double h);
  // s'(t) from M s' = J s + f_q at (t, y) and s_n_; false when the model fails there.
  bool slopes(ImplicitSystem& system, double t, const Eigen::VectorXd& y);
};

}  // namespace daekit
