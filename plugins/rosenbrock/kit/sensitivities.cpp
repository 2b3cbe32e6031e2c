#include "daekit/kits/rosenbrock/sensitivities.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/numerics/consistency.hpp"

namespace daekit {

RosenbrockSensitivities::RosenbrockSensitivities(ProblemView& problem, const SolveRequest& request,
                                                 const tableaus::RosenbrockTableau& tableau)
    : problem_(problem), request_(request), tab_(tableau), equations_(problem, request) {
  const Eigen::Index n = problem.size(), ns = equations_.columns();
  for (Eigen::MatrixXd* m : {&s_n_, &s_old_, &s_new_, &g_, &gt_, &hk_, &sum_, &err_}) m->setZero(n, ns);
  for (auto& k : ks_) k.setZero(n, ns);
  for (auto& d : dense_) d.setZero(n, ns);
  for (Eigen::VectorXd* v : {&u_, &column_, &work_}) v->setZero(n);
}

std::string RosenbrockSensitivities::refused() const { return equations_.refused_for_ode_family(std::string(tab_.name)); }

StepAttempt RosenbrockSensitivities::step(const RosenbrockStage& stage, const ErrorNorm& norm,
                                          const Eigen::VectorXd& y_new, double* error) {
  if (tab_.dense_rows == 0) y_end_ = y_new, mass_ = stage.mass;  // for the Hermite slopes at accept()
  const double t = stage.t, h = stage.h;
  const Eigen::VectorXd& y = *stage.y;
  const auto& k = *stage.k;
  const Eigen::Index ns = equations_.columns();
  Eval e = Eval::ok;
  const bool time_terms = !problem_.autonomous();
  if (time_terms) {
    const double delta = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), std::abs(h));
    e = equations_.time_derivative(t, y, s_n_, delta, gt_);
  }
  for (int i = 0; i < tab_.stages && e == Eval::ok; ++i) {
    u_ = y;
    sum_ = s_n_;
    for (int j = 0; j < i; ++j) {
      if (tab_.a[i][j] == 0.0) continue;
      u_.noalias() += tab_.a[i][j] * k[j];
      sum_.noalias() += tab_.a[i][j] * ks_[j];
    }
    // Stage 1 (c_1 = 0) at the last accepted end was evaluated there for its Hermite slope.
    if (i == 0) started_at_end_ = tab_.dense_rows == 0 && hermite_ && t == end_t_ && y == end_y_;
    if (i == 0 && started_at_end_)
      g_ = end_rhs_;
    else
      e = equations_.rhs(t + tab_.c[i] * h, u_, u_, sum_, g_, 0);
    if (e != Eval::ok) break;
    if (i == 0 && tab_.dense_rows == 0 && !started_at_end_) slope_start_ = g_;  // M s' at the step's start
    if (tab_.d[i] != 0.0 && time_terms) g_.noalias() += (h * tab_.d[i]) * gt_;
    if (stage.jacobian_current) {
      e = equations_.second_derivative(t, y, s_n_, k[i], hk_);
      if (e != Eval::ok) break;
      g_ += hk_;
    }
    for (Eigen::Index c = 0; c < ns; ++c) {
      column_ = g_.col(c);
      if (i > 0) {
        u_.setZero();
        for (int j = 0; j < i; ++j)
          if (tab_.C[i][j] != 0.0) u_.noalias() += (tab_.C[i][j] / h) * ks_[j].col(c);
        stage.mass->apply(u_, work_);
        column_ += work_;
      }
      if (StepAttempt a = solve_column(stage, norm, c); a.kind != StepAttempt::Kind::ok) return a;
      ks_[i].col(c) = work_;
      ++problem_.stats().nsolve_sens;
    }
  }
  if (e != Eval::ok)
    return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                               problem_.last_message());
  s_new_ = s_n_;
  err_.setZero();
  for (int i = 0; i < tab_.stages; ++i) {
    if (tab_.b[i] != 0.0) s_new_.noalias() += tab_.b[i] * ks_[i];
    if (tab_.btilde[i] != 0.0) err_.noalias() += tab_.btilde[i] * ks_[i];
  }
  *error = 0.0;
  if (request_.sens_error_control)
    for (Eigen::Index c = 0; c < ns; ++c) {
      const double pbar = equations_.scales()[static_cast<std::size_t>(c)];
      work_ = pbar * err_.col(c);
      magnitude_old_ = pbar * s_n_.col(c);
      magnitude_new_ = pbar * s_new_.col(c);
      *error = std::max(*error, norm.rms(work_, magnitude_old_, magnitude_new_, h));
    }
  return {};
}

StepAttempt RosenbrockSensitivities::solve_column(const RosenbrockStage& stage, const ErrorNorm& norm,
                                                  Eigen::Index c) {
  if (!stage.krylov) {
    stage.matrix->solve(column_, work_);
    return {};
  }
  // The column's own weights, as its error test weighs it: y's tolerances on pbar s.
  equations_.column_weights(norm, c, s_n_.col(c), magnitude_old_, column_weights_);
  const double gamma = stage.h * tab_.gamma;
  stage.krylov->linearise_at(stage.t, *stage.y, *stage.y, gamma, 1.0 / gamma);
  const auto outcome = stage.krylov->solve(column_weights_, column_, work_, stage.krylov_tolerance);
  if (outcome == KrylovSolver::Outcome::model_failed) {
    const Eval e = stage.krylov->model_failure();
    return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                               problem_.last_message());
  }
  // As y's stages: a column short of its tolerance fails the step, retried smaller.
  if (outcome != KrylovSolver::Outcome::converged)
    return StepAttempt::failed(StepAttempt::Kind::recoverable,
                               "the Krylov method did not converge on a sensitivity stage", 0.5);
  return {};
}

void RosenbrockSensitivities::accept(double t_start, double h) {
  t_start_ = t_start;
  h_ = h;
  for (int r = 0; r < tab_.dense_rows; ++r) {
    dense_[static_cast<std::size_t>(r)].setZero();
    for (int j = 0; j < tab_.stages; ++j)
      if (tab_.H[r][j] != 0.0) dense_[static_cast<std::size_t>(r)].noalias() += tab_.H[r][j] * ks_[static_cast<std::size_t>(j)];
  }
  s_old_ = s_n_;
  s_n_ = s_new_;
  stepped_ = true;
  if (tab_.dense_rows == 0) hermite_ = hermite_slopes(t_start + h);
}

// s' at the accepted step's ends, M s' = J s + f_q (the end's J is the next step's: kept),
// for cubic Hermite output where the method has no continuous extension, as y's.
// The end's M s' is the next step's first stage value: kept (end_rhs_) for it, and its
// slope is that step's starting slope.
bool RosenbrockSensitivities::hermite_slopes(double t_end) {
  if (!mass_ || !mass_->splits()) return false;  // a dense M: linear, as y's
  if (started_at_end_) {
    slope_old_.swap(slope_new_);
  } else {
    slope_old_.resize(slope_start_.rows(), slope_start_.cols());
    for (Eigen::Index c = 0; c < slope_start_.cols(); ++c) {
      derivative_from_mass(*mass_, problem_, slope_start_.col(c), column_);
      slope_old_.col(c) = column_;
    }
  }
  if (equations_.rhs(t_end, y_end_, y_end_, s_n_, end_rhs_, 0) != Eval::ok) return false;
  slope_new_.resize(end_rhs_.rows(), end_rhs_.cols());
  for (Eigen::Index c = 0; c < end_rhs_.cols(); ++c) {
    derivative_from_mass(*mass_, problem_, end_rhs_.col(c), column_);
    slope_new_.col(c) = column_;
  }
  end_t_ = t_end;
  end_y_ = y_end_;
  return true;
}

// The method's own continuous extension, as y's (stepper.cpp): Horner form of
// s_old (1 - theta) + theta (s_new + (1 - theta)(H1 + theta (H2 + theta H3))).
void RosenbrockSensitivities::interpolate(double t, Eigen::MatrixXd& out) const {
  const double theta = stepped_ ? (t - t_start_) / h_ : 1.0;
  if (!stepped_) {
    out = s_n_;
    return;
  }
  if (tab_.dense_rows == 0) {
    const double t1 = 1.0 - theta;
    out = t1 * s_old_ + theta * s_n_;  // linear: algebraic components, or without slopes
    if (!hermite_) return;
    const double h00 = (1.0 + 2.0 * theta) * t1 * t1, h10 = theta * t1 * t1;
    const double h01 = theta * theta * (3.0 - 2.0 * theta), h11 = -theta * theta * t1;
    for (Eigen::Index i = 0; i < out.rows(); ++i)
      if (!problem_.is_algebraic(i))
        out.row(i) = h00 * s_old_.row(i) + h01 * s_n_.row(i) + h_ * (h10 * slope_old_.row(i) + h11 * slope_new_.row(i));
    return;
  }
  out = dense_[static_cast<std::size_t>(tab_.dense_rows - 1)];
  for (int r = tab_.dense_rows - 2; r >= 0; --r) out = dense_[static_cast<std::size_t>(r)] + theta * out;
  out = (1.0 - theta) * s_old_ + theta * (s_n_ + (1.0 - theta) * out);
}

}  // namespace daekit
