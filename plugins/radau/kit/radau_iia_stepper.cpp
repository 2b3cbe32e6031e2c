#include "daekit/kits/radau/radau_iia_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace daekit {
namespace {
constexpr double uround = std::numeric_limits<double>::epsilon();
}

RadauIIAStepper::RadauIIAStepper(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                                 IterationMatrix& matrix, RadauIIASettings settings)
    : problem_(problem), request_(request), mass_(mass), matrix_(matrix), settings_(settings),
      scale_(problem, request) {
  const Eigen::Index n = problem.size();
  for (auto* v : {&f0_, &f_new_, &y_new_, &y_start_, &work_, &work2_, &stage_, &err_, &cont_y0_}) v->setZero(n);
  rhs_c_.resize(n);
  sol_c_.resize(n);
  basis_.resize(7);
  use_stages(std::clamp(settings_.start_stages, settings_.min_stages, settings_.max_stages));
  if (request.wants_sensitivities()) sensitivities_.emplace(problem, request);
}

// Switches the method: tableau, Newton limit, transformed tolerances, storage.
void RadauIIAStepper::use_stages(int s) {
  const Eigen::Index n = problem_.size();
  tab_ = &radau_tableau(s);
  stages_ = s;
  nit_ = settings_.max_newton + (5 * (s - 3)) / 2;
  // As RADAU5's rtol' = 0.1 rtol^(2/3) for 3 stages: the estimate has order s, the
  // method 2s - 1, so rtol' = 0.1 rtol^((s+1)/(2s)) asks the estimate for what the
  // user's tolerance means for the method.
  scale_.transform_tolerances((s + 1.0) / (2.0 * s));
  for (auto* v : {&z_, &w_, &fz_, &mw_}) v->assign(static_cast<std::size_t>(s), Eigen::VectorXd::Zero(n));
  pairs_ = static_cast<std::size_t>((s - 1) / 2);
  for (; prepared_ < pairs_; ++prepared_) complex_[prepared_].setup(matrix_);
  factored_h_ = 0.0;  // the new shifts need new factorisations
  steps_at_order_ = 0;
}

Eval RadauIIAStepper::start(double t0, const Eigen::VectorXd& y0) {
  if (sensitivities_ && !sensitivities_->start(t0, y0, &sensitivities_failed_))
    sensitivities_failed_ = "the sensitivities at t0: " + sensitivities_failed_;
  return evaluate_f0(t0, y0);
}

Eval RadauIIAStepper::evaluate_f0(double t, const Eigen::VectorXd& y) {
  const Eval e = problem_.rhs(t, y, f0_);
  have_f0_ = e == Eval::ok;
  return e;
}

// s's stages on y's converged ones; a failed convergence with an old Jacobian retries the
// step with a new one first (s's iteration is linear: only the kept J can hold it back).
std::optional<StepAttempt> RadauIIAStepper::solve_sensitivities(double t, double h, const Eigen::VectorXd& y,
                                                                 double* error) {
  const RadauIIAStage stage{t, h, tab_, &y, &z_, &matrix_, &complex_, &mass_, &scale_, nit_};
  std::optional<StepAttempt> failed = sensitivities_->solve_stages(stage, error);
  if (failed && failed->kind == StepAttempt::Kind::convergence && !jac_current_) {
    have_jac_ = false;
    failed->shrink = 1.0;
  }
  return failed;
}

void RadauIIAStepper::to_stages() {
  for (int i = 0; i < stages_; ++i) {
    z_[i].setZero();
    for (int j = 0; j < stages_; ++j) z_[i] += tab_->t(i, j) * w_[j];
  }
}

void RadauIIAStepper::to_transformed() {
  for (int i = 0; i < stages_; ++i) {
    w_[i].setZero();
    for (int j = 0; j < stages_; ++j) w_[i] += tab_->t_inv(i, j) * z_[j];
  }
}

// E1 = (gamma/h) M - J (real) and E_k = ((alpha_k + i beta_k)/h) M - J (complex).
bool RadauIIAStepper::factorise(double h) {
  if (!matrix_.factor(tab_->gamma / h)) return false;
  for (std::size_t k = 0; k < pairs_; ++k) {
    const std::complex<double> shift(tab_->alpha[k] / h, tab_->beta[k] / h);
    if (!complex_[k].factor(shift)) return false;
  }
  factored_h_ = h;
  return true;
}

StepAttempt RadauIIAStepper::attempt(double t, double h, const Eigen::VectorXd& y) {
  if (!sensitivities_failed_.empty()) return StepAttempt::failed(StepAttempt::Kind::fatal, sensitivities_failed_);
  step_t_ = t;
  // After an unexpected rejection the retry goes one order down at once (RADAU's UNEXP):
  // waiting for the next accepted step kept order 13 on Robertson at rtol 0.1 through
  // thousands of stage values the model could not evaluate.
  if (lower_for_retry_ && stages_ - 2 >= settings_.min_stages) use_stages(stages_ - 2);
  lower_for_retry_ = false;
  const int s = stages_;
  stages_used_ = s;
  retry_ = t == last_t_;
  last_t_ = t;
  y_start_ = y;
  if (std::optional<StepAttempt> failed = prepare_matrices(t, h, y)) return *failed;
  h_ = h;
  scale_.update(y, h);
  start_stages(h);
  if (std::optional<StepAttempt> failed = solve_stages(t, h, y)) return *failed;
  double err_s = 0.0;
  if (sensitivities_)
    if (std::optional<StepAttempt> failed = solve_sensitivities(t, h, y, &err_s)) return *failed;
  const double err = std::max(error_estimate(t, h, y), err_s);
  y_new_ = y + z_[s - 1];
  have_f_new_ = false;
  if (err <= 1.0) {
    StepAttempt failure;
    if (!evaluate_step_end(problem_, t + h, y_new_, f_new_, &failure, 0.5)) return failure;
    have_f_new_ = true;  // starts the next step
  }
  StepAttempt a;
  a.error = err;
  return a;
}

// A model evaluation failed: the retry goes one order down (RADAU's UNEXP).
StepAttempt RadauIIAStepper::model_failure(Eval e) {
  lower_for_retry_ = true;
  return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                             problem_.last_message(), 0.5);
}

// f at the step's start, the Jacobian (renewed after a rejection unless it is from this
// point) and the factorisations for this h; a failure when one cannot be had.
std::optional<StepAttempt> RadauIIAStepper::prepare_matrices(double t, double h, const Eigen::VectorXd& y) {
  if (!have_f0_) {
    const Eval e = problem_.rhs(t, y, f0_);
    if (e != Eval::ok) return model_failure(e);
    have_f0_ = true;
  }
  if (retry_ && !jac_current_) have_jac_ = false;
  bool new_matrix = false;
  if (!have_jac_) {
    const Eval e = matrix_.evaluate_jacobian(t, y, f0_);
    if (e != Eval::ok) return model_failure(e);
    have_jac_ = jac_current_ = true;
    new_matrix = true;
  }
  if (new_matrix || h != factored_h_) {
    if (!factorise(h)) {
      ++problem_.stats().nsingular;
      factored_h_ = 0.0;
      lower_for_retry_ = true;
      return StepAttempt::failed(StepAttempt::Kind::singular, "the iteration matrices of the Radau stages are singular", 0.5);
    }
  }
  return std::nullopt;
}

// Starting values: the last step's collocation polynomial (of whatever order) at the
// new nodes, else zero; for a re-take, at its nodes from the accepted step's start.
void RadauIIAStepper::start_stages(double h) {
  const int s = stages_;
  if (first_ || !cont_tab_) {
    for (int i = 0; i < s; ++i) z_[i].setZero(), w_[i].setZero();
  } else if (retake_from_) {
    for (int i = 0; i < s; ++i) {
      interpolate(tab_->c[i] * h / hold_, z_[i]);
      z_[i] -= *retake_from_;
    }
    to_transformed();
  } else {
    const int s_old = cont_tab_->stages;
    for (int i = 0; i < s; ++i) {
      cont_tab_->basis(1.0 + tab_->c[i] * h / hold_, basis_.data());
      z_[i] = -cont_z_[s_old - 1];
      for (int j = 0; j < s_old; ++j) z_[i] += basis_[j] * cont_z_[j];
    }
    to_transformed();
  }
}

// Simplified Newton iteration on the transformed stage systems; a failure when it does not
// converge fast enough (with the step reduction RADAU asks for).
std::optional<StepAttempt> RadauIIAStepper::solve_stages(double t, double h, const Eigen::VectorXd& y) {
  const Eigen::Index n = problem_.size();
  const int s = stages_;
  const Eigen::VectorXd& scal = scale_.weights();
  const double gamma_h = tab_->gamma / h;
  faccon_ = std::pow(std::max(faccon_, uround), 0.8);
  theta_ = std::abs(settings_.jacobian_reuse);
  double dynold = 0.0, thqold = 0.0;
  newton_ = 0;
  Stats& stats = problem_.stats();
  const double exponent_order = s + 1.0;
  while (true) {
    if (newton_ >= nit_) {
      newton_failed_ = lower_for_retry_ = true;
      return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages did not converge", 0.5);
    }
    for (int i = 0; i < s; ++i) {
      stage_ = y + z_[i];
      const Eval e = problem_.rhs(t + tab_->c[i] * h, stage_, fz_[i]);
      if (e != Eval::ok) return model_failure(e);
    }
    // Right-hand sides of the transformed Newton systems, into z_.
    for (int a = 0; a < s; ++a) {
      z_[a].setZero();
      for (int j = 0; j < s; ++j) z_[a] += tab_->t_inv(a, j) * fz_[j];
      mass_.apply(w_[a], mw_[a]);
    }
    z_[0] -= gamma_h * mw_[0];
    for (std::size_t k = 0; k < pairs_; ++k) {
      const int a = 1 + 2 * static_cast<int>(k), b = a + 1;
      const double al = tab_->alpha[k] / h, be = tab_->beta[k] / h;
      z_[a] += -al * mw_[a] + be * mw_[b];
      z_[b] += -al * mw_[b] - be * mw_[a];
    }
    matrix_.solve(z_[0], work_);
    z_[0] = work_;
    for (std::size_t k = 0; k < pairs_; ++k) {
      const int a = 1 + 2 * static_cast<int>(k), b = a + 1;
      rhs_c_.real() = z_[a];
      rhs_c_.imag() = z_[b];
      complex_[k].solve(rhs_c_, sol_c_);
      ++stats.nsolve;
      z_[a] = sol_c_.real();
      z_[b] = sol_c_.imag();
    }
    ++newton_;
    ++stats.nnewton;
    double sum = 0.0;
    for (int a = 0; a < s; ++a)
      for (Eigen::Index i = 0; i < n; ++i) sum += (z_[a][i] / scal[i]) * (z_[a][i] / scal[i]);
    const double dyno = std::sqrt(sum / (s * static_cast<double>(n)));
    if (!std::isfinite(dyno)) {
      newton_failed_ = lower_for_retry_ = true;
      return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages diverged", 0.5);
    }
    if (newton_ > 1 && newton_ < nit_) {
      const double thq = dyno / dynold;
      theta_ = newton_ == 2 ? thq : std::sqrt(thq * thqold);
      thqold = thq;
      if (theta_ < 0.99) {
        faccon_ = theta_ / (1.0 - theta_);
        const double dyth = faccon_ * dyno * std::pow(theta_, nit_ - 1 - newton_) / scale_.newton_tolerance();
        if (dyth >= 1.0) {
          remember_rate();
          ++stats.nnewton_fail;
          newton_failed_ = true;
          const double qnewt = std::max(1e-4, std::min(20.0, dyth));
          const double hhfac = 0.8 * std::pow(qnewt, -1.0 / (exponent_order + nit_ - 1 - newton_));
          lower_for_retry_ = hhfac <= 0.5;  // RADAU's UNEXN: a cut this deep is unexpected too
          return StepAttempt::failed(StepAttempt::Kind::convergence,
                         "the Newton iteration of the Radau stages converges too slowly", hhfac);
        }
      } else {
        remember_rate();
        ++stats.nnewton_fail;
        newton_failed_ = lower_for_retry_ = true;
        return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages diverged", 0.5);
      }
    }
    dynold = std::max(dyno, uround);
    for (int a = 0; a < s; ++a) w_[a] += z_[a];
    to_stages();
    if (scale_.newton_converged(faccon_, dyno, newton_)) break;
  }
  return std::nullopt;
}

// The embedded estimate, filtered through E1; after a rejected first step once more
// with f at y + err (RADAU5's rule).
double RadauIIAStepper::error_estimate(double t, double h, const Eigen::VectorXd& y) {
  const int s = stages_;
  work_.setZero();
  for (int j = 0; j < s; ++j) work_ += (tab_->error_weights[j] / h) * z_[j];
  mass_.apply(work_, work2_);
  stage_ = work2_ + f0_;
  matrix_.solve(stage_, err_);
  double err = std::max(scale_.norm(err_), 1e-10);
  if (err >= 1.0 && (first_ || retry_)) {
    stage_ = y + err_;
    if (problem_.rhs(t, stage_, work_) == Eval::ok) {
      stage_ = work_ + work2_;
      matrix_.solve(stage_, err_);
      err = std::max(scale_.norm(err_), 1e-10);
    }
  }
  return err;
}

void RadauIIAStepper::accept() {
  if (sensitivities_) sensitivities_->accept(step_t_);
  // The collocation polynomial of this step, for dense output and the next start.
  cont_tab_ = tab_;
  cont_y0_ = y_start_;
  if (cont_z_.size() != z_.size()) cont_z_.assign(z_.size(), Eigen::VectorXd());
  for (std::size_t i = 0; i < z_.size(); ++i) cont_z_[i] = z_[i];
  const double ratio = hold_ > 0.0 ? h_ / hold_ : 1.0;
  first_ = false;
  hold_ = h_;
  if (have_f_new_) f0_.swap(f_new_);
  have_f0_ = have_f_new_;
  have_jac_ = theta_ <= settings_.jacobian_reuse;
  const bool fresh_jacobian = jac_current_;
  jac_current_ = false;
  last_t_ = std::numeric_limits<double>::quiet_NaN();

  // The order for the next step.
  ++steps_at_order_;
  remember_rate();
  const int s = stages_;
  // Up only on a rate measured (two Newton iterations or more): below RADAU's VITU with
  // any Jacobian, or below a larger bound with one evaluated at this step's start, whose
  // rate tells how h compares with the problem, not how old J is (RADAU refreshes J above
  // a rate of 0.001, so nearly all its rates are fresh ones).
  const bool fast = theta_ <= settings_.raise_rate || (fresh_jacobian && theta_ <= settings_.raise_rate_fresh);
  if (s + 2 <= settings_.max_stages && newton_ >= 2 && fast &&
      steps_at_order_ >= settings_.steps_before_raise && ratio >= settings_.steady_low &&
      ratio <= settings_.steady_high) {
    use_stages(s + 2);
  } else if (s - 2 >= settings_.min_stages && (rate_memory_ >= settings_.lower_rate || newton_failed_)) {
    // Down on the remembered rate (RADAU's THETAT: each rate halves per step), so one bad
    // rate weighs on the next few steps, or on a failed Newton iteration.
    use_stages(s - 2);
  }
  newton_failed_ = false;
}

StepAttempt RadauIIAStepper::retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end) {
  // The Newton iteration's and the order selection's memory stay the accepted steps': the
  // steps after the event go on from it (a re-take converges from good starting values
  // and would read as "no rate measured"; one that fails is not the method's trouble, and
  // does not lower the order).
  const auto memory = std::tuple(faccon_, theta_, newton_, newton_failed_, lower_for_retry_, rate_memory_);
  const StepAttempt a = radau_detail::retake_step(*this, t, h, y, y_end, [this] { lower_for_retry_ = false; });
  std::tie(faccon_, theta_, newton_, newton_failed_, lower_for_retry_, rate_memory_) = memory;
  return a;
}

void RadauIIAStepper::remember_rate() {
  const double measured = newton_ >= 2 ? theta_ : 0.0;
  rate_memory_ = std::min(10.0, std::max(measured, 0.5 * rate_memory_));
}

void RadauIIAStepper::interpolate(double theta, Eigen::VectorXd& out) const {
  double b[7];
  cont_tab_->basis(theta, b);
  out = cont_y0_;
  for (int j = 0; j < cont_tab_->stages; ++j) out += b[j] * cont_z_[j];
}

double RadauIIAController::quotient(double err) const {
  const int nit = stepper_.max_newton();
  const double cfac = limits_.safety * (1 + 2 * nit);
  const double fac = std::min(limits_.safety, cfac / (stepper_.last_newton() + 2 * nit));
  const double exponent = 1.0 / (stepper_.error_stages() + 1.0);
  return std::max(1.0 / limits_.fac_max, std::min(1.0 / limits_.fac_min, std::pow(err, exponent) / fac));
}

double RadauIIAController::accepted(double h, double err) {
  double quot = quotient(err);
  const int s = stepper_.error_stages();
  if (h_acc_ != 0.0 && stages_acc_ == s) {  // Gustafsson's prediction within one order
    const double exponent = 1.0 / (s + 1.0);
    double facgus = (h_acc_ / h) * std::pow(err * err / err_acc_, exponent) / limits_.safety;
    facgus = std::max(1.0 / limits_.fac_max, std::min(1.0 / limits_.fac_min, facgus));
    quot = std::max(quot, facgus);
  }
  h_acc_ = h;
  err_acc_ = std::max(1e-2, err);
  stages_acc_ = s;
  const double ratio = 1.0 / quot;
  const auto& st = stepper_.settings();
  if (stepper_.stages() == s && stepper_.last_theta() <= st.jacobian_reuse && ratio >= st.keep_step_low &&
      ratio <= st.keep_step_high)
    return 1.0;
  return ratio;
}

double RadauIIAController::rejected(double, double err) { return std::min(1.0, 1.0 / quotient(err)); }

}  // namespace daekit
