#include "daekit/kits/rosenbrock/stepper.hpp"

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/finite_difference.hpp"

#include <cmath>
#include <algorithm>
#include <limits>

namespace daekit {

RosenbrockStepper::RosenbrockStepper(const tableaus::RosenbrockTableau& tableau, ProblemView& problem,
                                     const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm,
                                     int max_jacobian_age)
    : tab_(tableau), problem_(problem), mass_(mass), matrix_(matrix), norm_(norm),
      max_jacobian_age_(tableau.w_method ? std::max(1, max_jacobian_age) : 1) {
  const Eigen::Index n = problem.size();
  for (auto* v : {&f0_, &ft_, &y_old_, &y_new_, &u_, &fu_, &rhs_, &sum_, &msum_, &err_, &f_old_, &f_new_, &yp_old_,
                  &yp_new_, &kept_y_old_, &kept_y_new_, &kept_f_new_})
    v->setZero(n);
  for (int i = 0; i < tab_.stages; ++i) k_[i].setZero(n);
  for (int r = 0; r < tab_.dense_rows; ++r) dense_[r].setZero(n);
}

Eval RosenbrockStepper::start(double t0, const Eigen::VectorXd& y0) {
  if (sensitivities_ && !sensitivities_->start(t0, y0, &sensitivities_failed_))
    sensitivities_failed_ = "the sensitivities at t0: " + sensitivities_failed_;
  return evaluate_f0(t0, y0);
}

Eval RosenbrockStepper::evaluate_f0(double t, const Eigen::VectorXd& y) {
  const Eval e = problem_.rhs(t, y, f0_);
  have_f0_ = e == Eval::ok;
  return e;
}

StepAttempt RosenbrockStepper::failure(Eval e) const {
  return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                             problem_.last_message());
}

Eval RosenbrockStepper::time_derivative(double t, const Eigen::VectorXd& y) {
  if (problem_.autonomous()) {
    ft_.setZero();
    return Eval::ok;
  }
  if (problem_.has_analytic_dfdt()) return problem_.dfdt(t, y, ft_);
  // Time has no tolerance scale: the step size stands in for it.
  const double delta = fd_increment(t, std::abs(h_last_) > 0.0 ? std::abs(h_last_) : 1.0);
  Eval e = problem_.rhs(t + delta, y, fu_, true);
  if (e == Eval::ok) ft_ = (fu_ - f0_) / delta;
  return e;
}

StepAttempt RosenbrockStepper::prepare_matrix(double t, double h, const Eigen::VectorXd& y) {
  const bool fresh = !have_jac_;
  if (fresh) {
    Eval e = krylov_ || arnoldi_ ? Eval::ok : matrix_.evaluate_jacobian(t, y, f0_);
    if (e == Eval::ok) e = time_derivative(t, y);
    if (e != Eval::ok) return failure(e);
    if (arnoldi_) arnoldi_->restart();
    have_jac_ = true;
    jacobian_age_ = 0;
  } else if (jacobian_age_ > 0) {
    ++problem_.stats().njac_reused;
  }
  norm_.weights(y, weights_);  // every path's: the LU's scaling, the Krylov paths' inner products
  if (arnoldi_) return prepare_projection(t, h, y);
  if (krylov_) {
    const Eval e = krylov_->prepare_preconditioner(t, y, f0_, h * tab_.gamma, fresh);
    if (e == Eval::recoverable)
      return StepAttempt::failed(StepAttempt::Kind::recoverable, "the preconditioner could not be set up", 0.5);
    return e == Eval::ok ? StepAttempt{} : failure(e);
  }
  if (!matrix_.factor_scaled(1.0 / (h * tab_.gamma), weights_)) {
    StepAttempt a;
    a.kind = StepAttempt::Kind::singular;
    a.message = "the iteration matrix M/(h*gamma) - J is singular";
    return a;
  }
  return {};
}

StepAttempt RosenbrockStepper::prepare_projection(double t, double h, const Eigen::VectorXd& y) {
  product_->at(t, y, y, 0.0);
  const auto outcome = arnoldi_->prepare([this](ArnoldiJacobian::ConstRef v,
                                                ArnoldiJacobian::Ref out) { return product_->apply(v, out); },
                                         f0_, problem_.autonomous() ? nullptr : &ft_, weights_, h * tab_.gamma,
                                         krylov_tolerance_);
  Stats& stats = problem_.stats();
  stats.nlin_iters += arnoldi_->added();
  switch (outcome) {
    case ArnoldiJacobian::Outcome::model_failed: return failure(arnoldi_->model_failure());
    case ArnoldiJacobian::Outcome::singular: {
      StepAttempt a;
      a.kind = StepAttempt::Kind::singular;
      a.message = "the projected iteration matrix I/(h*gamma) - H is singular";
      return a;
    }
    case ArnoldiJacobian::Outcome::limited: ++stats.nlin_conv_fails; return {};
    case ArnoldiJacobian::Outcome::converged: return {};
  }
  return {};
}

double RosenbrockStepper::stage_tolerance() const {
  // h / h_accurate ~ err^(1/q) of the last accepted step (err ~ h^q): a Krylov method
  // that fails at larger steps keeps err far below 1, and the stages' error, which the
  // estimate does not see, is then held to what it would add over the steps accuracy
  // alone would take. 10^-3 at most: the solve must stay within reach of the products.
  return krylov_tolerance_ * std::clamp(std::pow(accepted_error_, 1.0 / error_order()), 1e-3, 1.0);
}

StepAttempt RosenbrockStepper::solve_stage(int i, double t, double h, const Eigen::VectorXd& y) {
  Eigen::VectorXd& k = k_[static_cast<std::size_t>(i)];
  if (arnoldi_) {
    arnoldi_->solve(rhs_, k);
    ++problem_.stats().nsolve;
    return {};
  }
  if (!krylov_) {
    matrix_.solve(rhs_, k);
    return {};
  }
  const double gamma = h * tab_.gamma;
  krylov_->linearise_at(t, y, y, gamma, 1.0 / gamma);
  const auto outcome = krylov_->solve(weights_, rhs_, k, stage_tolerance());
  if (outcome == KrylovSolver::Outcome::model_failed) return failure(krylov_->model_failure());
  // A stage goes into y_new as it is: one short of its tolerance fails the step, which is
  // retried smaller (the operator nearer the identity, the method converges faster).
  if (outcome != KrylovSolver::Outcome::converged)
    return StepAttempt::failed(StepAttempt::Kind::recoverable, "the Krylov method did not converge on a stage", 0.5);
  return {};
}

StepAttempt RosenbrockStepper::attempt(double t, double h, const Eigen::VectorXd& y) {
  if (!sensitivities_failed_.empty()) return StepAttempt::failed(StepAttempt::Kind::fatal, sensitivities_failed_);
  // After a rejection (t, y) are unchanged: f, J and f_t are reused, only W is refactored.
  if (!have_f0_) {
    Eval e = problem_.rhs(t, y, f0_);
    if (e != Eval::ok) return failure(e);
    have_f0_ = true;
  }
  if (StepAttempt a = prepare_matrix(t, h, y); a.kind != StepAttempt::Kind::ok) return a;
  y_old_ = y;
  const int s = tab_.stages;
  for (int i = 0; i < s; ++i) {
    const Eigen::VectorXd* fi = &f0_;
    if (i > 0) {
      u_ = y;
      for (int j = 0; j < i; ++j)
        if (tab_.a[i][j] != 0.0) u_.noalias() += tab_.a[i][j] * k_[j];
      Eval e = problem_.rhs(t + tab_.c[i] * h, u_, fu_);
      if (e != Eval::ok) return failure(e);
      fi = &fu_;
    }
    rhs_ = *fi;
    if (tab_.d[i] != 0.0 && !problem_.autonomous()) rhs_.noalias() += (h * tab_.d[i]) * ft_;
    if (i > 0) {
      sum_.setZero();
      for (int j = 0; j < i; ++j)
        if (tab_.C[i][j] != 0.0) sum_.noalias() += (tab_.C[i][j] / h) * k_[j];
      mass_.apply(sum_, msum_);
      rhs_ += msum_;
    }
    if (StepAttempt a = solve_stage(i, t, h, y); a.kind != StepAttempt::Kind::ok) return a;
    if (!k_[i].allFinite()) {
      StepAttempt a;
      a.kind = StepAttempt::Kind::recoverable;
      a.message = "a stage of the step became non-finite";
      return a;
    }
  }
  y_new_ = y;
  err_.setZero();
  for (int i = 0; i < s; ++i) {
    if (tab_.b[i] != 0.0) y_new_.noalias() += tab_.b[i] * k_[i];
    if (tab_.btilde[i] != 0.0) err_.noalias() += tab_.btilde[i] * k_[i];
  }
  t_last_ = t;
  h_last_ = h;
  StepAttempt a;
  a.error = norm_.rms(err_, y, y_new_, h);
  last_error_ = a.error;
  if (sensitivities_) {
    // Krylov's products are at this step's y whatever the preconditioner's age: J is current.
    const RosenbrockStage stage{
        t, h, &y, &k_, &matrix_, &mass_, krylov_ || jacobian_age_ == 0, krylov_, stage_tolerance()};
    double sensitivity_error = 0.0;
    const StepAttempt columns = sensitivities_->step(stage, norm_, y_new_, &sensitivity_error);
    if (columns.kind != StepAttempt::Kind::ok) return columns;
    if (sensitivity_error > 1.0 && a.error <= 1.0) ++problem_.stats().nsens_error_fails;
    a.error = std::max(a.error, sensitivity_error);
  }
  // A W-method whose old Jacobian may be what failed gets a fresh one for the retry.
  if (!(a.error <= 1.0) && jacobian_age_ > 0) have_jac_ = false;
  have_f_new_ = false;
  if (a.error <= 1.0) {
    StepAttempt failure;
    if (!evaluate_step_end(problem_, t + h, y_new_, f_new_, &failure)) return failure;
    have_f_new_ = true;  // starts the next step and serves Hermite interpolation
  }
  return a;
}

void RosenbrockStepper::accept() {
  accepted_error_ = last_error_;
  if (sensitivities_) sensitivities_->accept(t_last_, h_last_);
  for (int r = 0; r < tab_.dense_rows; ++r) {
    dense_[r].setZero();
    for (int j = 0; j < tab_.stages; ++j)
      if (tab_.H[r][j] != 0.0) dense_[r].noalias() += tab_.H[r][j] * k_[j];
  }
  if (tab_.dense_rows == 0) f_old_ = f0_;
  f0_ = f_new_;
  have_f0_ = have_f_new_;
  // A W-method may keep J (and f_t) for the next steps; then f_t is from an older point too.
  if (++jacobian_age_ >= max_jacobian_age_) have_jac_ = false;
}

StepAttempt RosenbrockStepper::retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end) {
  if (krylov_ || arnoldi_ || sensitivities_)
    return StepAttempt::failed(StepAttempt::Kind::recoverable, "no re-take on a matrix-free path");
  kept_y_old_.swap(y_old_);
  kept_y_new_.swap(y_new_);
  kept_f_new_.swap(f_new_);
  const bool had_f_new = have_f_new_, had_jacobian = have_jac_;
  const double t_last = t_last_, h_last = h_last_;
  have_f0_ = false;  // f0_ is the next step's
  have_jac_ = true;  // J and f_t from the accepted step's start, still in the iteration matrix
  const StepAttempt a = attempt(t, h, y);
  if (a.kind == StepAttempt::Kind::ok && a.error <= 1.0) y_end = y_new_;
  kept_y_old_.swap(y_old_);
  kept_y_new_.swap(y_new_);
  kept_f_new_.swap(f_new_);
  have_f_new_ = had_f_new;
  have_jac_ = had_jacobian;
  t_last_ = t_last;
  h_last_ = h_last;
  have_f0_ = false;
  return a;
}

bool RosenbrockStepper::derivative(const Eigen::VectorXd& f, Eigen::VectorXd& yp) const {
  // A dense M would need a factorisation per interpolation: Hermite is for an M that
  // splits (identity, diagonal, a sparse M whose non-zero block was factorised once).
  if (!mass_.splits()) return false;
  derivative_from_mass(mass_, problem_, f, yp);
  return true;
}

void RosenbrockStepper::hermite(double theta, Eigen::VectorXd& out) {
  const double t1 = 1.0 - theta;
  out = t1 * y_old_ + theta * y_new_;  // linear: algebraic components, or when f failed
  if (!have_f_new_ || !derivative(f_old_, yp_old_) || !derivative(f_new_, yp_new_)) return;
  const double h00 = (1.0 + 2.0 * theta) * t1 * t1, h10 = theta * t1 * t1;
  const double h01 = theta * theta * (3.0 - 2.0 * theta), h11 = -theta * theta * t1;
  for (Eigen::Index i = 0; i < out.size(); ++i) {
    if (problem_.is_algebraic(i)) continue;
    out[i] = h00 * y_old_[i] + h01 * y_new_[i] + h_last_ * (h10 * yp_old_[i] + h11 * yp_new_[i]);
  }
}

void RosenbrockStepper::interpolate(double theta, Eigen::VectorXd& out) {
  if (tab_.dense_rows == 0) {
    hermite(theta, out);
    return;
  }
  // Horner form of y_new + (1 - theta)(h1 + theta (h2 + theta h3))
  out = dense_[tab_.dense_rows - 1];
  for (int r = tab_.dense_rows - 2; r >= 0; --r) out = dense_[r] + theta * out;
  out = (1.0 - theta) * y_old_ + theta * (y_new_ + (1.0 - theta) * out);
}

}  // namespace daekit
