#include "daekit/numerics/implicit_system.hpp"

#include <cmath>

#include "daekit/numerics/finite_difference.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

Eval ImplicitSystem::setup(ProblemView& problem, const SolveRequest& request, bool allow_sparse) {
  problem_ = &problem;
  const Eigen::Index n = problem.size();
  const MassKind kind = problem.mass_kind();
  mass_form_ = !problem.residual_only() && (kind == MassKind::identity || kind == MassKind::constant);
  f_.resize(n);
  if (mass_form_) {
    const Eval e = mass_.setup(problem, request.t0, request.y0);
    if (e != Eval::ok) return e;
    matrix_.setup(problem, request, mass_, allow_sparse);
    return Eval::ok;
  }
  analytic_residual_jacobian_ = problem.has_residual_jacobian() && request.jacobian != JacobianSource::finite_difference;
  problem.stats().jacobian_used = analytic_residual_jacobian_ ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
  problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_DENSE;
  y_work_.resize(n);
  yp_work_.resize(n);
  r_work_.resize(n);
  w_.setZero(n, n);
  rtol_ = request.rtol;
  atol_ = request.atol;
  return Eval::ok;
}

Eval ImplicitSystem::residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, Eigen::VectorXd& r) {
  if (!mass_form_) return problem_->residual(t, y, yp, r);
  const Eval e = problem_->rhs(t, y, f_);
  if (e != Eval::ok) return e;
  mass_.apply(yp, r);
  r -= f_;
  return Eval::ok;
}

Eval ImplicitSystem::refresh(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const Eigen::VectorXd& r,
                             double cj, bool new_jacobian) {
  cj_ = cj;
  singular_ = false;
  if (mass_form_) {
    if (new_jacobian) {
      // f_ holds f(t, y) from the residual just evaluated there.
      const Eval e = matrix_.evaluate_jacobian(t, y, f_);
      if (e != Eval::ok) return e;
    } else {
      ++problem_->stats().njac_reused;
    }
    singular_ = !matrix_.factor(cj);
    return Eval::ok;
  }
  ++problem_->stats().njac;
  const Eval e = analytic_residual_jacobian_ ? problem_->residual_jacobian(t, y, yp, cj, w_)
                                             : difference_matrix(t, y, yp, r, cj);
  if (e != Eval::ok) return e;
  ++problem_->stats().nlu;
  singular_ = !lu_.factor(w_);
  if (singular_) ++problem_->stats().nsingular;
  return Eval::ok;
}

// Column j of dF/dy + cj dF/dy' is the change of F along (e_j, cj e_j), as DASSL forms it.
Eval ImplicitSystem::difference_matrix(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                       const Eigen::VectorXd& r, double cj) {
  y_work_ = y;
  yp_work_ = yp;
  for (Eigen::Index j = 0; j < y.size(); ++j) {
    const double delta = fd_increment(y[j], atol_[j] + rtol_[j] * std::abs(y[j]));
    y_work_[j] = y[j] + delta;
    yp_work_[j] = yp[j] + cj * delta;
    const Eval e = problem_->residual(t, y_work_, yp_work_, r_work_, true);
    y_work_[j] = y[j];
    yp_work_[j] = yp[j];
    if (e != Eval::ok) return e;
    w_.col(j) = (r_work_ - r) / delta;
  }
  return Eval::ok;
}

void ImplicitSystem::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  if (mass_form_) {
    matrix_.solve(b, x);
    return;
  }
  ++problem_->stats().nsolve;
  lu_.solve(b, x);
}

}  // namespace daekit
