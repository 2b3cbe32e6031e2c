#include "daekit/kits/bdf/stepper.hpp"

#include "daekit/numerics/initial_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/newton_tolerance.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {
namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

// Shampine & Reichelt, "The MATLAB ODE Suite" (1997), Table 1: the NDF kappas for
// orders 1..5 (order 5 is BDF5: its NDF would lose too much stability).
constexpr double ndf_kappa[BdfStepper::kMaxOrder + 1] = {0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0};

// DASSL and IDA stop Newton at a third of the tolerance. What is left is noise in the
// corrector (and in the rounding of the LU that drives it) and enters the differences
// from which the order and the next step are chosen: on Fekete at 1e-11 the step count
// moved 7 035 .. 16 225 with the BLAS kernel alone. Converging further at tight
// tolerances, by RADAU5's rule with DASSL's 0.33 as the cap, removes that
// (docs/solvers/bdf.md: spread 0.00 on Fekete 1e-8 .. 1e-11) and takes fewer steps.
constexpr double dassl_newton_tolerance = 0.33;

// With a Krylov method and a preconditioner near W^-1, DASSL's and IDA's own 0.33: there
// is no LU whose rounding moves with the BLAS kernel, and the linear tolerance is a
// fraction (eplifac) of the Newton tolerance, so the tighter rule made every linear solve
// 330 times tighter at rtol 1e-6 for no accuracy: on reaction3d (n = 5 10^5) 2.5x the
// GMRES iterations, 1.3-1.7x the time, the same scd to 0.06 (docs/benchmarks/scaling.md,
// "Krylov, part 3"). Not without one (or with Jacobi): there a small
// residual is no small error, and on Robertson's DAE the looser solves' noise in the
// error estimate held the steps near 1e-5 (100 000 steps to t = 0.2 against 571 to 1e5).
BdfSettings with_newton_tolerance(BdfSettings s, const SolveRequest& request, const ImplicitSystem& system) {
  if (s.newton_tol != 0.0) return s;
  s.newton_tol = system.krylov_preconditioned() ? dassl_newton_tolerance
                                                : newton_tolerance(request.rtol.minCoeff(), dassl_newton_tolerance);
  return s;
}

// The first step at t0 when the user gives none. DASSL's rule (the stepper's
// initial_step(): |h y'| <= 1/2 in the error norm, at most a thousandth of the span) is
// IDA's and suits DAEs. For ODEs it starts far below what order 1 can take (60 times below
// CVODE's first step on reaction3d at rtol 1e-4: six steps of doubling to catch up, a
// third of the run), so the larger of it and CVODE's estimate from backward Euler's local
// error, which first_step_order_one makes for ODEs only.
Eval first_step(const BdfStepper& stepper, ProblemView& problem, const SolveRequest& request,
                const ImplicitSystem& system, const ErrorNorm& norm, const Eigen::VectorXd& y0,
                const Eigen::VectorXd& yp0, const BdfSettings& settings, double* h0) {
  *h0 = stepper.initial_step();
  if (!system.mass_form() || settings.fixed_step > 0.0) return Eval::ok;
  double estimate = 0.0;
  const Eval e = first_step_order_one(problem, norm, system.mass(), request.t0, request.tend, y0, yp0,
                                      request.hmax, &estimate);
  *h0 = std::max(*h0, estimate);
  return e;
}

double harmonic(int k) {
  double s = 0.0;
  for (int j = 1; j <= k; ++j) s += 1.0 / j;
  return s;
}

}  // namespace

BdfStepper::BdfStepper(ImplicitSystem& system, const SolveRequest& request, const ErrorNorm& norm,
                       BdfSettings settings)
    : system_(system),
      request_(request),
      norm_(norm),
      newton_norm_(ErrorNorm::for_request(request, system.problem(), /*error_test=*/false)),
      settings_(with_newton_tolerance(settings, request, system)),
      n_(request.y0.size()),
      max_order_(std::clamp(settings.max_order, 1, kMaxOrder)) {
  phi_.setZero(n_, max_order_ + 1);
  for (Eigen::VectorXd* v : {&y_, &yp_, &e_, &delta_, &r_}) v->setZero(n_);
  if (system_.krylov()) newton_weights_.setZero(n_);
}

void BdfStepper::start(double t0, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0) {
  t_ = t0;
  y_ = y0;
  yp_ = yp0;
  slope_in_yp_ = true;
  fresh_start_ = true;
  scaled_order_ = 0;  // the history starts again from y0 and y'0
  restarted_at_stop_ = false;
  initial_phase_ = settings_.fixed_step <= 0.0;
  order_ = 1;
  // Breakpoints behind a restart (after an event) are not met again.
  next_tstop_ = 0;
  while (next_tstop_ < request_.tstops.size() && request_.direction() * (request_.tstops[next_tstop_] - t0) <= 0.0)
    ++next_tstop_;
}

double BdfStepper::initial_step() const {
  const double span = std::abs(request_.tend - request_.t0);
  if (settings_.fixed_step > 0.0) {
    // Start far below the fixed step so that the low-order start-up steps add less
    // error than the method commits at its full order: h^((k+1)/2), in units of the span.
    const double rel = std::min(1.0, settings_.fixed_step / span);
    return settings_.fixed_step * std::pow(rel, 0.5 * (max_order_ - 1));
  }
  double h = 0.001 * span;
  const double yp_norm = norm_.rms(yp_, y_, y_, 1.0);  // y and y' of the (re)start
  if (yp_norm > 0.5 / h) h = 0.5 / yp_norm;
  return h;
}

double BdfStepper::lte_factor(int k) const {
  if (!settings_.ndf || k < 1) return 1.0;
  return std::abs(1.0 + (k + 1) * ndf_kappa[k] * harmonic(k));
}

// First step after a (re)start: order 1 from y and h y'. Until that step is accepted,
// phi_2 holds y' itself (every try at it scales by its own h: no copy of y'(t0) beside
// the history, 1 of about 40 doubles per unknown at 2 10^6 unknowns).
void BdfStepper::restart_history(double h, const Eigen::VectorXd& y) {
  phi(1) = y;
  if (slope_in_yp_) phi(2) = yp_;
  slope_in_yp_ = false;
  psi_[1] = h;
  h_old_ = h;
  order_ = 1;
  order_old_ = 0;
  constant_steps_ = 0;
  if (sensitivities_) sensitivities_->restart_history(h);
}

void BdfStepper::compute_coefficients(double h) {
  const int k = order_;
  constant_steps_trial_ = (h == h_old_ && k == order_old_) ? std::min(constant_steps_ + 1, order_old_ + 2) : 1;
  alpha_[1] = beta_[1] = sigma_[1] = 1.0;
  gamma_[1] = 0.0;
  double next = h;  // t_{n+1} - t_{n+1-i} for the i being built
  for (int i = 2; i <= k + 1; ++i) {
    const double previous = psi_[i - 1];  // t_n - t_{n+1-i}
    psi_trial_[i - 1] = next;
    beta_[i] = beta_[i - 1] * psi_trial_[i - 1] / previous;
    next = previous + h;
    alpha_[i] = h / next;
    sigma_[i] = (i - 1) * sigma_[i - 1] * alpha_[i];
    gamma_[i] = gamma_[i - 1] + alpha_[i - 1] / h;
  }
  psi_trial_[k + 1] = next;
  double alpha_s = 0.0, alpha_0 = 0.0;
  for (int i = 1; i <= k; ++i) {
    alpha_s -= 1.0 / i;
    alpha_0 -= alpha_[i];
  }
  const double leading = settings_.ndf ? (1.0 - ndf_kappa[k]) * alpha_s : alpha_s;
  cj_ = -leading / h;
  // DASSL's error constant; at constant steps 1/(k+1) (BDF) or 1/(k+1) + kappa gamma_k (NDF).
  error_constant_ = std::max(std::abs(alpha_[k + 1] + leading - alpha_0), alpha_[k + 1] * lte_factor(k));
}

// phi*_j = beta_j phi_j in place of phi_j (as IDA scales its differences: a second copy
// of the history was 7 of the 69 doubles per unknown at 2 10^6 unknowns), y = sum of the
// phi*_j and y' = sum of gamma_j phi*_j as the Newton iteration's start, in one pass over
// the rows rather than 3 (k + 1): at 10^6 unknowns each pass is a trip through memory.
// Each value is summed in the same order as column by column.
void BdfStepper::predict(int k) {
  if (fresh_start_) {  // order 1, beta_2 = 1, and phi_2 holds y': phi*_2 = h y' is not stored
    const double h = h_attempt_;
    for (Eigen::Index i = 0; i < n_; ++i) {
      const double v = h * phi_(i, 1);
      y_[i] = beta_[1] * phi_(i, 0) + v;
      yp_[i] = gamma_[2] * v;
    }
    scaled_order_ = k;
    return;
  }
  for (Eigen::Index i = 0; i < n_; ++i) {
    double y = beta_[1] * phi_(i, 0), yp = 0.0;
    phi_(i, 0) = y;
    for (int j = 2; j <= k + 1; ++j) {
      const double v = beta_[j] * phi_(i, j - 1);
      phi_(i, j - 1) = v;
      y += v;
      yp += gamma_[j] * v;
    }
    y_[i] = y;
    yp_[i] = yp;
  }
  scaled_order_ = k;
}

// The attempt was not accepted: phi_j = phi*_j / beta_j again (only the columns whose
// beta_j is not 1; those that are 1, all of them at constant steps, are unchanged bit for
// bit). Rounding may leave the last bit of a restored value off, as in IDA.
void BdfStepper::unscale_history() {
  const int k = scaled_order_;
  scaled_order_ = 0;
  for (int j = 1; j <= k + 1; ++j)
    if (beta_[j] != 1.0) phi(j) /= beta_[j];
}

StepAttempt BdfStepper::attempt(double t, double h, const Eigen::VectorXd& y) {
  h_attempt_ = h;
  t_new_ = t + h;
  y_n_ = &y;
  if (scaled_order_ > 0) unscale_history();  // the last attempt was rejected or failed
  if (fresh_start_) restart_history(h, y);
  compute_coefficients(h);
  const int k = order_;
  predict(k);
  y_pred_norm_ = newton_norm(y_);
  if (sensitivities_) sensitivities_->predict(beta_.data(), gamma_.data(), k);

  StepAttempt a = newton(t_new_);
  if (a.kind == StepAttempt::Kind::ok && sensitivities_) {
    a = sensitivities_->correct(system_, t_new_, y_, yp_, cj_, newton_norm_, h, dassl_newton_tolerance,
                                settings_.linear.settings.newton_fraction * dassl_newton_tolerance);
    if (a.kind == StepAttempt::Kind::convergence) {
      // As for y: an old matrix may be the reason, so the same step again with a new one.
      need_new_jacobian_ = true;
      a.shrink = jacobian_fresh_ ? 0.25 : 1.0;
    }
  }
  if (a.kind != StepAttempt::Kind::ok) {
    initial_phase_ = false;
    return a;
  }
  if (settings_.fixed_step > 0.0) return a;  // error 0: always accepted
  return error_test(h);
}

StepAttempt BdfStepper::newton(double t_new) {
  Stats& stats = system_.problem().stats();
  e_.setZero();  // y - y_pred: y and y' start at the prediction
  jacobian_fresh_ = false;
  // The convergence factor S = rate / (1 - rate) carries over from the last step, as
  // IDA's does: a first correction is trusted when the last rate says the iteration
  // error after it is within the tolerance. It starts at DASSL's 100 (a first correction
  // only trusted when tiny) after a restart and with every new matrix or preconditioner,
  // where the last rate says nothing. Restarting it every step cost a second iteration
  // on nearly every step: bdf ran 2.0 Newton iterations per step on the brusselator
  // where IDA runs 1.15 (docs/benchmarks/scaling.md). Only with a Krylov solve behind a
  // preconditioner near W^-1, where the Newton tolerance is DASSL's too. Without one the
  // correction's error follows the residual at hand, not the last rate (Robertson's
  // residual form crept at steps of 1e-12). With LUs the iteration error it leaves in the
  // error estimate at the tight tolerance cost accuracy: Fekete 1e-8 scd 6.6 -> 6.0, the
  // constant-step orders of BDF2 and BDF4 off by 0.6.
  if (fresh_start_ || !system_.krylov_preconditioned()) rate_factor_ = 100.0;
  // A new factorisation when cj moved too far from the one factorised (DASSL's
  // window [0.6, 1/0.6]) or the last iteration failed.
  const double ratio = matrix_valid_ ? cj_ / system_.matrix_cj() : 0.0;
  const bool refresh = !matrix_valid_ || need_new_jacobian_ || ratio < 0.6 || ratio > 1.0 / 0.6;
  if (system_.krylov()) newton_norm_.weights(*y_n_, newton_weights_);
  const double linear_tol = settings_.linear.settings.newton_fraction * settings_.newton_tol;

  auto model_failure = [&](Eval e) {
    need_new_jacobian_ = true;
    return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                               system_.problem().last_message(), 0.25);
  };

  double old_norm = 0.0;
  // The target (settings_.newton_tol) can be tighter than rounding allows on ill-conditioned
  // systems (index 2 at small h): an iteration that stalls (rounding stops its progress)
  // after meeting DASSL's own criterion is accepted rather than failed.
  const double dassl_tol = std::max(settings_.newton_tol, dassl_newton_tolerance);
  bool dassl_converged = false;
  for (int m = 0; m < settings_.max_newton; ++m) {
    Eval e = system_.residual(t_new, y_, yp_, r_);
    if (e != Eval::ok) return model_failure(e);
    if (m == 0 && refresh) {
      const bool new_jacobian = need_new_jacobian_ || !matrix_valid_ || !system_.jacobian_survives_cj_change();
      e = system_.refresh(t_new, y_, yp_, r_, cj_, new_jacobian);
      if (e != Eval::ok) return model_failure(e);
      if (new_jacobian) jacobian_fresh_ = true, need_new_jacobian_ = false;
      matrix_valid_ = !system_.singular();
      rate_factor_ = 100.0;
      if (system_.singular()) {
        // With an old Jacobian, first retry the same step with a new one.
        need_new_jacobian_ = true;
        return StepAttempt::failed(StepAttempt::Kind::singular, "the iteration matrix dF/dy + cj dF/dy' is singular",
                                   jacobian_fresh_ ? 0.25 : 1.0);
      }
    }
    ++stats.nnewton;
    const auto c = system_.correction(t_new, y_, yp_, cj_, r_, delta_, newton_weights_, linear_tol);
    if (c.model != Eval::ok) return model_failure(c.model);
    // No progress of the Krylov method: as a diverging iteration, retried with a new preconditioner.
    if (c.outcome == KrylovSolver::Outcome::failed) break;
    // A solve that only reduced its residual gives a usable step but no measure of
    // convergence: its correction may be small because the method stalled, not because y
    // is near the solution. Iterated from, never stopped on.
    const bool inexact = c.outcome == KrylovSolver::Outcome::reduced;
    // The matrix was factorised for another cj: DASSL's correction of the step length
    // (a Krylov operator has the present cj).
    const double cj_matrix = system_.matrix_cj();
    if (!system_.krylov() && cj_matrix != cj_) delta_ *= 2.0 / (1.0 + cj_ / cj_matrix);
    y_ -= delta_;
    yp_ -= cj_ * delta_;
    e_ -= delta_;
    const double delta_norm = newton_norm(delta_);
    if (!std::isfinite(delta_norm)) break;
    if (m == 0) {
      old_norm = delta_norm;
      if (!inexact && delta_norm <= 100.0 * eps * y_pred_norm_) return {};
    } else {
      const double rate = std::pow(delta_norm / old_norm, 1.0 / m);
      if (rate > 0.9) {
        if (dassl_converged && !inexact) return {};
        break;
      }
      rate_factor_ = rate / (1.0 - rate);
    }
    if (inexact) continue;
    if (rate_factor_ * delta_norm <= settings_.newton_tol) return {};
    dassl_converged = rate_factor_ * delta_norm <= dassl_tol;
  }
  ++stats.nnewton_fail;
  // An old matrix may be the reason: retry the same step with a new one first.
  need_new_jacobian_ = true;
  return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration did not converge",
                             jacobian_fresh_ ? 0.25 : 1.0);
}

StepAttempt BdfStepper::error_test(double h) {
  const int k = order_;
  const double e_norm = norm(e_, h);
  const double erk = sigma_[k + 1] * e_norm * lte_factor(k);
  terk_ = (k + 1) * erk;
  est_ = erk;
  order_new_ = k;
  if (k > 1) {
    Eigen::VectorXd& work = delta_;  // free once the iteration is over
    work = phi(k + 1) + e_;
    erkm1_ = sigma_[k] * norm(work, h) * lte_factor(k - 1);
    terkm1_ = k * erkm1_;
    bool lower;
    if (k > 2) {
      work += phi(k);
      const double terkm2 = (k - 1) * sigma_[k - 1] * norm(work, h) * lte_factor(k - 2);
      lower = std::max(terkm1_, terkm2) <= terk_;
    } else {
      lower = terkm1_ <= 0.5 * terk_;
    }
    if (lower) order_new_ = k - 1, est_ = erkm1_;
  }
  StepAttempt a;
  a.error = error_constant_ * e_norm;
  // With the sensitivities in the error test, theirs counts too: the order stays y's
  // choice, but every estimate the next step size comes from grows by the factor s's error
  // exceeds y's (else a step rejected for s is cut by 0.9 only, and one accepted is
  // doubled again: Robertson-like cycles of thousands of rejections, chemakzo at 1e-10).
  if (sensitivities_ && request_.sens_error_control) {
    const double sensitivity_error = error_constant_ * sensitivities_->correction_norm(norm_, h);
    if (sensitivity_error > 1.0 && a.error <= 1.0) ++system_.problem().stats().nsens_error_fails;
    sensitivity_factor_ = std::max(1.0, sensitivity_error / std::max(a.error, std::numeric_limits<double>::min()));
    est_ *= sensitivity_factor_, terk_ *= sensitivity_factor_, terkm1_ *= sensitivity_factor_;
    erkm1_ *= sensitivity_factor_;
    a.error = std::max(a.error, sensitivity_error);
  }
  if (a.error <= 1.0) return a;

  // Rejected: DASSL's reductions, lowering the order as the estimates ask, and to
  // order 1 after the third failure in a row.
  initial_phase_ = false;
  ++error_failures_;
  double r = 0.25;
  if (error_failures_ == 1) {
    order_ = order_new_;
    r = std::isfinite(est_) ? std::clamp(0.9 * std::pow(2.0 * est_ + 1e-4, -1.0 / (order_ + 1)), 0.25, 0.9) : 0.25;
  } else if (error_failures_ == 2) {
    order_ = order_new_;
  } else {
    order_ = 1;
  }
  rejected_factor_ = r;
  return a;
}

void BdfStepper::choose_after_success(double h) {
  const int k = order_;
  const int order_change = k - order_old_;
  if (settings_.fixed_step > 0.0) {
    // The start-up grows the step geometrically, by ratios below the bounds for which
    // the variable-step BDF of each order stays zero-stable under constant step ratios
    // (Grigorieff 1983: about 1.6 for order 3, 1.28 for order 4, 1.12 for order 5).
    static constexpr double growth[kMaxOrder + 1] = {0.0, 2.0, 2.0, 1.5, 1.2, 1.1};
    order_ = std::min(k + 1, max_order_);
    accepted_factor_ = std::min(growth[k], settings_.fixed_step / h);
    return;
  }
  if (order_new_ == k - 1 || k == max_order_) initial_phase_ = false;
  if (initial_phase_) {
    order_ = k + 1;
    accepted_factor_ = 2.0;
    return;
  }
  int next = k;
  double est = est_;
  if (order_new_ == k - 1) {
    next = k - 1, est = erkm1_;
  } else if (k < max_order_ && constant_steps_trial_ > k + 1 && order_change != 1) {
    // phi_{k+2} holds the previous step's correction: their difference estimates order k+1.
    Eigen::VectorXd& work = delta_;  // free once the iteration is over
    work = e_ - phi(k + 2);
    const double erkp1 = norm(work, h) / (k + 2) * lte_factor(k + 1) * sensitivity_factor_;
    const double terkp1 = (k + 2) * erkp1;
    if (k == 1) {
      if (terkp1 < 0.5 * terk_) next = 2, est = erkp1;
    } else if (terkm1_ <= std::min(terk_, terkp1)) {
      next = k - 1, est = erkm1_;
    } else if (terkp1 < terk_) {
      next = k + 1, est = erkp1;
    }
  }
  order_ = next;
  const double r = std::pow(2.0 * est + 1e-4, -1.0 / (next + 1));
  accepted_factor_ = r >= 2.0 ? 2.0 : (r > 1.0 ? 1.0 : std::clamp(r, 0.5, 0.9));
}

void BdfStepper::accept() {
  const int k = order_;
  const double h = h_attempt_;
  choose_after_success(h);
  // The new differences: phi_j of this step are the beta-scaled ones plus the correction
  // (phi_{k+1} = phi*_{k+1} + e, then phi_j = phi*_j + phi_{j+1}), row by row in one pass.
  // The first step after a (re)start has phi*_2 = h y', phi_2 holding y' (predict).
  const bool fresh = fresh_start_;
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (k < max_order_) phi_(i, k + 1) = e_[i];
    double sum = (fresh ? h * phi_(i, k) : phi_(i, k)) + e_[i];
    phi_(i, k) = sum;
    for (int j = k; j >= 1; --j) phi_(i, j - 1) = sum = phi_(i, j - 1) + sum;
  }
  scaled_order_ = 0;
  if (sensitivities_) sensitivities_->accept(k, max_order_);
  psi_ = psi_trial_;
  constant_steps_ = constant_steps_trial_;
  order_old_ = k;
  h_old_ = h;
  t_ = t_new_;
  error_failures_ = 0;
  fresh_start_ = false;

  // A breakpoint: restart at order 1 from here, as the test set's drivers do, with the
  // corrector's y' (the left derivative) as the starting slope.
  const double dir = request_.direction();
  bool at_tstop = false;
  while (next_tstop_ < request_.tstops.size() &&
         dir * (request_.tstops[next_tstop_] - t_) <= 4.0 * eps * std::max(std::abs(t_), std::abs(h))) {
    at_tstop = true;
    ++next_tstop_;
  }
  restarted_at_stop_ = at_tstop && settings_.fixed_step <= 0.0 && settings_.restart_at_tstops;
  if (restarted_at_stop_) {
    fresh_start_ = true;
    initial_phase_ = true;
    slope_in_yp_ = true;  // the corrector's y' stays in yp_ until the next attempt
    // The first step from the new slope, as at t0 (and as IDA after IDAReInit). Scaling
    // the step cut short to land here (how long it was depends on where the steps before
    // happened to end) made the whole next interval follow the last bits of the history:
    // a relative change of 1e-9 in rtol moved nand's error at t = 80 by a factor 10.
    accepted_factor_ = initial_step() / h;
  }
}

void BdfStepper::projected(const Eigen::VectorXd& y) {
  phi(1) += y - y_;
  y_ = y;
}

// DASSL's interpolation on the last step from the updated differences.
void BdfStepper::interpolate(double theta, Eigen::VectorXd& out) const {
  const double offset = (theta - 1.0) * h_old_;  // t_out - t_n
  out = phi(1);
  double c = 1.0, gamma = offset / psi_[1];
  for (int j = 2; j <= order_old_ + 1; ++j) {
    c *= gamma;
    gamma = (offset + psi_[j - 1]) / psi_[j];
    out += c * phi(j);
  }
}

SolveOutcome solve_bdf(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                       const BdfSettings& settings) {
  ImplicitSystem system;
  const std::string& linear = settings.linear.linear_solver;
  if (linear == "sparse" && !(problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN))
    return {Status::invalid_input, "linear_solver=sparse needs a problem with a Jacobian pattern", request.t0};
  if (system.setup(problem, request, /*allow_sparse=*/linear != "dense", settings.linear.krylov()) != Eval::ok)
    return {Status::evaluation_failure, problem.last_message(), request.t0};
  if (settings.linear.krylov()) {
    if (const std::string why = system.setup_krylov(request, settings.linear); !why.empty())
      return {Status::invalid_input, why, request.t0};
  }
  Eigen::VectorXd y = request.y0, yp = request.yp0;
  InitialisationOutcome init;
  if (system.mass_form()) {
    init = initialise(problem, request, system.mass(), y);
    if (init.status != Status::success) return {init.status, init.message, request.t0};
    // y'(t0): the problem's own where it gives one for these y, else from M y' = f.
    if (yp.size() != y.size() || y != request.y0) {
      Eigen::VectorXd f(y.size());
      if (problem.rhs(request.t0, y, f) != Eval::ok)
        return {Status::evaluation_failure, "at t0: " + problem.last_message(), request.t0};
      derivative_from_mass(system.mass(), problem, f, yp);
    }
  } else {
    init = initialise_residual(problem, request, y, yp);
    if (init.status != Status::success) return {init.status, init.message, request.t0};
  }
  const ErrorNorm norm = ErrorNorm::for_request(request, problem);
  BdfStepper stepper(system, request, norm, settings);
  stepper.start(request.t0, y, yp);
  double h0 = request.h0;
  if (h0 <= 0.0 && first_step(stepper, problem, request, system, norm, y, yp, settings, &h0) == Eval::fatal)
    return {Status::evaluation_failure, "choosing the first step: " + problem.last_message(), request.t0};
  yp = Eigen::VectorXd();  // the stepper keeps y'(t0); y goes on as the driver's state
  std::optional<BdfSensitivities> sensitivities;
  if (request.wants_sensitivities()) {
    sensitivities.emplace(problem, request, settings.max_order);
    if (const std::string why = sensitivities->refused(); !why.empty())
      return {Status::unsupported_problem, why, request.t0};
    if (std::string why; !sensitivities->start(system, request.t0, y, &why))
      return {Status::inconsistent_initial_values, "the sensitivities at t0: " + why, request.t0};
    stepper.integrate_sensitivities(&*sensitivities);
    sink.sensitivities_from([&](double t, Eigen::MatrixXd& s) {
      stepper.interpolate_sensitivities(t, s);
      return true;
    });
  }
  BdfController controller(stepper);
  DriverLimits limits;
  limits.first_rejection_cut = 0.0;  // the stepper's own reductions from the first step on
  // After an event changed the state: consistent values and slopes again (the algebraic
  // components re-solved when the event asks for it), then order 1 from there.
  const Restart restart = [&](double t, Eigen::VectorXd& y_event, const EventRestart& cause) -> RestartOutcome {
    Eigen::VectorXd yp_event;
    if (RestartOutcome again = reinitialise_after_event(problem, request, system.mass_form() ? &system.mass() : nullptr,
                                                        t, cause, y_event, &yp_event);
        again.status != Status::success)
      return again;
    stepper.start(t, y_event, yp_event);
    // DASSL's first step (|h y'| <= 1/2 in the error norm) falls below the minimum step
    // where the event left a component at 0 moving fast (a bounce at rtol 1e-11, its
    // weight atol alone): kept within [1e-3, 1] of an estimate of order 1's local error
    // (h^2 y''), which knows the step is much safer than that. Not above it: the first
    // steps are of low order, and events are located on their interpolants.
    double h = stepper.initial_step();
    if (system.mass_form()) {
      Eigen::VectorXd f(y_event.size());
      double h_error = 0.0;
      if (problem.rhs(t, y_event, f) != Eval::ok ||
          initial_step(problem, norm, system.mass(), t, y_event, f, 1, request.hmax, &h_error) != Eval::ok)
        return {Status::evaluation_failure, "choosing the first step: " + problem.last_message(), 0.0};
      h = std::clamp(h, 1e-3 * h_error, h_error);
    }
    return {Status::success, "", h};
  };
  // Output between the steps and events of an index-1 DAE: its algebraic components re-solved
  // there, as in every family (the root of a function of them, and the restart, agree).
  const auto projection =
      AlgebraicProjection::for_solve(problem, request, system.mass_form() ? &system.mass() : nullptr);
  SolveOutcome out = drive(stepper, problem, request, sink, controller, h0, y, limits, restart, projection.get());
  if (!init.message.empty() && is_success(out.status)) out.message = init.message;
  return out;
}

}  // namespace daekit
