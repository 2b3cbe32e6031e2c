// One ESDIRK step on M y' = f(t, y) (constant M, index-1 DAEs included), written to the
// stepper contract of daekit's driver (docs/authoring/solver.md, section 3):
//   start, f_start, attempt, y_new, accept, interpolate, dense_degree, order, projected, restart.
// Each implicit stage solves  M (Y_i - y) = h sum_{j<i} a_ij k_j + h gamma f(t_i, Y_i)  by
// Newton's method with the core's iteration matrix W = M / (h gamma) - J (one Jacobian and
// one LU per step); k_i = f(t_i, Y_i). The last stage is the solution.
#pragma once

#include <daekit/numerics/driver.hpp>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/problem_view.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "esdirk_tableaus.hpp"

namespace esdirk {

class Stepper {
 public:
  Stepper(const Tableau& tab, daekit::ProblemView& problem, const daekit::MassMatrix& mass,
          daekit::IterationMatrix& matrix, const daekit::ErrorNorm& norm, double newton_tolerance)
      : tab_(tab), problem_(problem), mass_(mass), matrix_(matrix), norm_(norm), kappa_(newton_tolerance) {
    check_tableau(tab);
    const Eigen::Index n = problem.size();
    for (auto* v : {&y_old_, &y_new_, &f_old_, &stage_, &delta_, &residual_, &sum_, &err_, &m_err_, &scratch_})
      v->setZero(n);
    for (auto& k : k_) k.setZero(n);
  }

  // f(t0, y0): the first stage of the first step, and the automatic initial step's slope.
  daekit::Eval start(double t, const Eigen::VectorXd& y) {
    const daekit::Eval e = problem_.rhs(t, y, k_[0]);
    have_f_ = e == daekit::Eval::ok;
    return e;
  }
  const Eigen::VectorXd& f_start() const { return k_[0]; }
  // After an event changed the state, or a constraint moved the end point: f anew.
  daekit::Eval restart(double t, const Eigen::VectorXd& y) { return start(t, y); }
  void projected(const Eigen::VectorXd&) { have_f_ = false; }

  daekit::StepAttempt attempt(double t, double h, const Eigen::VectorXd& y) {
    using daekit::StepAttempt;
    if (!have_f_) {
      if (const daekit::Eval e = problem_.rhs(t, y, k_[0]); e != daekit::Eval::ok) return failure(e);
      have_f_ = true;
    }
    // One Jacobian per step, at its start; the LU for this h (a rejected step keeps J).
    if (t != t_jacobian_ || !have_jacobian_) {
      if (const daekit::Eval e = matrix_.evaluate_jacobian(t, y, k_[0]); e != daekit::Eval::ok) return failure(e);
      t_jacobian_ = t;
      have_jacobian_ = true;
    }
    const double alpha = 1.0 / (h * tab_.gamma);
    if (!matrix_.factor(alpha)) return StepAttempt::failed(StepAttempt::Kind::singular, "singular iteration matrix");

    for (int i = 1; i < tab_.stages; ++i) {
      // sum = h sum_{j<i} a_ij k_j, the explicit part of stage i.
      sum_.setZero();
      for (int j = 0; j < i; ++j) sum_ += (h * tab_.a[i][j]) * k_[j];
      // Predictor: the previous stage's increment stretched to this stage's c.
      if (i > 1 && tab_.c[i - 1] > 0) stage_ = y + (tab_.c[i] / tab_.c[i - 1]) * (stage_ - y);
      else stage_ = y;
      const double ti = t + tab_.c[i] * h;
      if (StepAttempt a = newton(ti, h, y, alpha, k_[i]); a.kind != StepAttempt::Kind::ok) return a;
    }
    y_new_ = stage_;  // stiffly accurate: the last stage is the solution

    // Error: h sum (b_i - b_hat_i) k_i, filtered through W (as RADAU5 does) so that stiff
    // components do not blow the estimate up: err = W^-1 (M e) / (h gamma).
    err_.setZero();
    for (int i = 0; i < tab_.stages; ++i) err_ += (h * (tab_.a[tab_.stages - 1][i] - tab_.b_hat[i])) * k_[i];
    mass_.apply(err_, m_err_);
    m_err_ *= alpha;
    matrix_.solve(m_err_, err_);
    StepAttempt ok;
    ok.error = norm_.rms(err_, y, y_new_, h);
    if (!std::isfinite(ok.error)) return StepAttempt::failed(StepAttempt::Kind::recoverable, "non-finite error estimate");
    t_old_ = t;
    h_ = h;
    y_old_ = y;
    return ok;
  }

  const Eigen::VectorXd& y_new() const { return y_new_; }
  // The accepted step's last stage value k_s = f(t + h, y_new) is the next step's first stage.
  void accept() {
    f_old_ = k_[0];
    k_[0] = k_[tab_.stages - 1];
    have_f_ = true;
  }
  // Cubic Hermite on the last accepted step from y and f at both ends, where M is diagonal
  // (y' = f / M_ii on differential components); linear on algebraic components and for a
  // full M, where f alone does not give y'.
  void interpolate(double theta, Eigen::VectorXd& out) const {
    out = (1.0 - theta) * y_old_ + theta * y_new_;
    if (mass_.shape() == daekit::MassMatrix::Shape::dense) return;
    const double t1 = 1.0 - theta;
    const double h00 = (1.0 + 2.0 * theta) * t1 * t1, h10 = theta * t1 * t1;
    const double h01 = theta * theta * (3.0 - 2.0 * theta), h11 = -theta * theta * t1;
    for (Eigen::Index i = 0; i < out.size(); ++i) {
      const double m = mass_.entry(i, i);
      if (m == 0.0) continue;
      out[i] = h00 * y_old_[i] + h01 * y_new_[i] + h_ * (h10 * f_old_[i] + h11 * k_[0][i]) / m;
    }
  }
  int dense_degree() const { return 3; }
  int order() const { return tab_.order; }
  // The controller's order: the error estimate's, plus one.
  int error_order() const { return std::min(tab_.order, tab_.embedded_order) + 1; }

 private:
  // Newton for one stage: G(Y) = M (Y - y) - sum - h gamma f(ti, Y) = 0, solved as
  // W dY = -G / (h gamma); converged when the next correction is expected below kappa in
  // the error norm (Hairer's rate estimate), diverging or slow iterations shrink the step.
  daekit::StepAttempt newton(double ti, double h, const Eigen::VectorXd& y, double alpha, Eigen::VectorXd& k) {
    using daekit::StepAttempt;
    double previous = 0.0, rate = 0.5;
    for (int it = 0; it < max_newton_; ++it) {
      if (const daekit::Eval e = problem_.rhs(ti, stage_, k); e != daekit::Eval::ok) return failure(e);
      scratch_ = stage_ - y;
      mass_.apply(scratch_, residual_);
      residual_ -= sum_ + (h * tab_.gamma) * k;
      residual_ *= -alpha;
      matrix_.solve(residual_, delta_);
      ++problem_.stats().nnewton;
      stage_ += delta_;
      const double size = norm_.rms(delta_, stage_, stage_, h);
      if (!std::isfinite(size)) return StepAttempt::failed(StepAttempt::Kind::convergence, "Newton diverged", 0.25);
      if (it > 0) {
        rate = size / previous;
        if (rate >= 1.0) {
          ++problem_.stats().nnewton_fail;
          return StepAttempt::failed(StepAttempt::Kind::convergence, "Newton diverged", 0.5);
        }
      }
      if ((it == 0 ? size : rate / (1.0 - rate) * size) <= kappa_) {
        // k from the stage equation, M (Y - y) = sum + h gamma k: no further f evaluation,
        // and on algebraic rows (zero rows of M) the zero that f tends to.
        scratch_ = stage_ - y;
        mass_.apply(scratch_, k);
        k = alpha * (k - sum_);
        return {};
      }
      previous = size;
    }
    ++problem_.stats().nnewton_fail;
    return StepAttempt::failed(StepAttempt::Kind::convergence, "Newton did not converge", 0.5);
  }

  daekit::StepAttempt failure(daekit::Eval e) const {
    return daekit::StepAttempt::failed(
        e == daekit::Eval::fatal ? daekit::StepAttempt::Kind::fatal : daekit::StepAttempt::Kind::recoverable,
        problem_.last_message());
  }

  // A tableau that breaks the row-sum or weight conditions is a typo: refused, not run.
  static void check_tableau(const Tableau& t) {
    double sum_b = 0, sum_b_hat = 0;
    for (int i = 0; i < t.stages; ++i) {
      double row = 0;
      for (int j = 0; j <= i; ++j) row += t.a[i][j];
      if (std::abs(row - t.c[i]) > 1e-12) throw std::logic_error(std::string(t.name) + ": row sum differs from c");
      if (i > 0 && t.a[i][i] != t.gamma) throw std::logic_error(std::string(t.name) + ": diagonal is not gamma");
      sum_b += t.a[t.stages - 1][i];
      sum_b_hat += t.b_hat[i];
    }
    if (std::abs(sum_b - 1) > 1e-12 || std::abs(sum_b_hat - 1) > 1e-12)
      throw std::logic_error(std::string(t.name) + ": weights do not sum to 1");
  }

  const Tableau& tab_;
  daekit::ProblemView& problem_;
  const daekit::MassMatrix& mass_;
  daekit::IterationMatrix& matrix_;
  const daekit::ErrorNorm& norm_;
  double kappa_;
  int max_newton_ = 7;
  bool have_f_ = false, have_jacobian_ = false;
  double t_jacobian_ = 0, t_old_ = 0, h_ = 0;
  Eigen::VectorXd y_old_, y_new_, f_old_, stage_, delta_, residual_, sum_, err_, m_err_, scratch_;
  std::array<Eigen::VectorXd, max_stages> k_;
};

}  // namespace esdirk
