#include "daekit/kits/bdf/sensitivities.hpp"

#include <algorithm>
#include <cmath>

#include "daekit/numerics/consistency.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

BdfSensitivities::BdfSensitivities(ProblemView& problem, const SolveRequest& request, int max_order)
    : problem_(problem), equations_(problem, request), max_order_(max_order) {
  const Eigen::Index n = problem.size(), ns = equations_.columns();
  phi_.assign(static_cast<std::size_t>(max_order + 3), Eigen::MatrixXd::Zero(n, ns));
  phi_star_ = phi_;
  for (Eigen::MatrixXd* m : {&s_n_, &sp_start_, &s_, &sp_, &s_pred_, &sp_pred_, &e_, &residual_}) m->setZero(n, ns);
  r_.setZero(n);
  delta_.setZero(n);
}

std::string BdfSensitivities::refused() const { return equations_.refused_for_ode_family("bdf"); }

bool BdfSensitivities::start(ImplicitSystem& system, double t0, const Eigen::VectorXd& y0, std::string* why) {
  if (!equations_.consistent_initial(t0, y0, s_n_, why)) return false;
  if (slopes(system, t0, y0)) return true;
  *why = problem_.last_message();
  return false;
}

std::string BdfSensitivities::restart_from(ImplicitSystem& system, double t, const Eigen::VectorXd& y,
                                           const Eigen::MatrixXd& s) {
  s_n_ = s;
  std::string why;
  if (!equations_.make_consistent(t, y, s_n_, &why)) return why;
  return slopes(system, t, y) ? "" : problem_.last_message();
}

bool BdfSensitivities::slopes(ImplicitSystem& system, double t, const Eigen::VectorXd& y) {
  Eigen::VectorXd f(y.size()), column(y.size());
  Eval e = problem_.rhs(t, y, f);
  if (e == Eval::ok) e = equations_.rhs(t, y, f, s_n_, residual_);
  if (e != Eval::ok) return false;
  for (Eigen::Index k = 0; k < columns(); ++k) {
    derivative_from_mass(system.mass(), problem_, residual_.col(k), column);
    sp_start_.col(k) = column;
  }
  s_ = s_n_;
  sp_ = sp_start_;
  return true;
}

void BdfSensitivities::restart_history(double h) {
  phi_[1] = s_n_;
  phi_[2] = h * sp_start_;
}

void BdfSensitivities::predict(const double* beta, const double* gamma, int order) {
  for (int j = 1; j <= order + 1; ++j) phi_star_[static_cast<std::size_t>(j)] = beta[j] * phi_[static_cast<std::size_t>(j)];
  s_pred_ = phi_star_[1];
  sp_pred_.setZero();
  for (int j = 2; j <= order + 1; ++j) {
    s_pred_ += phi_star_[static_cast<std::size_t>(j)];
    sp_pred_ += gamma[j] * phi_star_[static_cast<std::size_t>(j)];
  }
}

StepAttempt BdfSensitivities::correct(ImplicitSystem& system, double t, const Eigen::VectorXd& y,
                                      const Eigen::VectorXd& yp, double cj, const ErrorNorm& newton_norm, double h,
                                      double tolerance, double linear_tolerance) {
  s_ = s_pred_;
  sp_ = sp_pred_;
  e_.setZero();
  const double cj_matrix = system.matrix_cj();
  // Twice y's iterations (DASSL's 4): linear in s, the iteration only converges slowly when
  // the kept matrix is old, and a retried step costs more than a few back-solves.
  constexpr int max_iterations = 8;
  // A first correction is trusted only when it is small (a factor of 20, as IDAS' staggered
  // corrector starts each step): the rate a step before measured need not hold for this
  // step's matrix and residual.
  double rate_factor = 20.0, first = 0.0;
  for (int m = 0; m < max_iterations; ++m) {
    const Eval e = equations_.residual(t, y, yp, r_, s_, sp_, residual_);
    if (e != Eval::ok)
      return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                                 problem_.last_message(), 0.25);
    double largest = 0.0;
    bool inexact = false;  // a column's solve only reduced its residual
    for (Eigen::Index k = 0; k < columns(); ++k) {
      r_ = residual_.col(k);
      if (system.krylov()) {
        // Each column to its own norm (column_norm's weights), with the operator at y's
        // converged iterate and the present cj: no step-length correction.
        equations_.column_weights(newton_norm, k, s_n_.col(k), magnitude_, column_weights_);
        const auto c = system.correction(t, y, yp, cj, r_, delta_, column_weights_, linear_tolerance);
        if (c.model != Eval::ok)
          return StepAttempt::failed(c.model == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                                     problem_.last_message(), 0.25);
        if (c.outcome == KrylovSolver::Outcome::failed)
          return StepAttempt::failed(StepAttempt::Kind::convergence,
                                     "the Krylov method made no progress on the sensitivities' corrector", 0.25);
        inexact = inexact || c.outcome == KrylovSolver::Outcome::reduced;
      } else {
        system.solve(r_, delta_);
        // The matrix was factorised for another cj: DASSL's correction of the step length.
        if (cj_matrix != cj) delta_ *= 2.0 / (1.0 + cj / cj_matrix);
      }
      ++problem_.stats().nsolve_sens;
      s_.col(k) -= delta_;
      sp_.col(k) -= cj * delta_;
      e_.col(k) -= delta_;
      largest = std::max(largest, column_norm(newton_norm, k, delta_, h));
    }
    if (!std::isfinite(largest)) break;
    // DASSL's test, as y's iteration: converged when the rate of the (linear) iteration
    // so far says the rest of it is below the tolerance.
    if (m == 0) {
      first = largest;
    } else {
      const double rate = std::pow(largest / first, 1.0 / m);
      if (rate > 0.9) break;
      rate_factor = rate / (1.0 - rate);
    }
    // As y's iteration: a correction whose solve stalled may be small for that reason
    // alone, far from s (pollu, unpreconditioned GMRES, rtol 1e-6: dy/dk3 890 578
    // tolerances off, with success). Iterated from, never stopped on.
    if (inexact) continue;
    if (rate_factor * largest <= tolerance) return {};
  }
  return StepAttempt::failed(StepAttempt::Kind::convergence, "the sensitivities' corrector did not converge", 0.25);
}

double BdfSensitivities::correction_norm(const ErrorNorm& norm, double h) {
  double largest = 0.0;
  for (Eigen::Index k = 0; k < columns(); ++k) largest = std::max(largest, column_norm(norm, k, e_.col(k), h));
  return largest;
}

double BdfSensitivities::column_norm(const ErrorNorm& norm, Eigen::Index k, ProblemView::ConstRef v, double h) {
  const double pbar = equations_.scales()[static_cast<std::size_t>(k)];
  weighted_ = pbar * v;
  magnitude_ = pbar * s_n_.col(k);
  return norm.rms(weighted_, magnitude_, magnitude_, h);
}

void BdfSensitivities::accept(int order, int max_order) {
  for (int j = 1; j <= order + 1; ++j) phi_[static_cast<std::size_t>(j)] = phi_star_[static_cast<std::size_t>(j)];
  if (order < max_order) phi_[static_cast<std::size_t>(order + 2)] = e_;
  phi_[static_cast<std::size_t>(order + 1)] += e_;
  for (int j = order; j >= 1; --j) phi_[static_cast<std::size_t>(j)] += phi_[static_cast<std::size_t>(j + 1)];
  s_n_ = s_;
  sp_start_ = sp_;  // the corrector's s', the slope a restart at a breakpoint starts from
}

void BdfSensitivities::interpolate(double offset, const double* psi, int order_old, Eigen::MatrixXd& out) const {
  out = order_old == 0 ? s_n_ : phi_[1];
  if (order_old == 0) return;
  double c = 1.0, gamma = offset / psi[1];
  for (int j = 2; j <= order_old + 1; ++j) {
    c *= gamma;
    gamma = (offset + psi[j - 1]) / psi[j];
    out += c * phi_[static_cast<std::size_t>(j)];
  }
}

}  // namespace daekit
