#include "adjoint_backward.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/numerics/finite_difference.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"

namespace daekit::rosenbrock_adjoint {
namespace {

// The increment of the central differences of the second-derivative terms.
double increment(const SolveRequest& req, const Eigen::VectorXd& y, const Eigen::VectorXd& v) {
  return directional_increment(y, v, req.rtol, req.atol);
}

}  // namespace

Eval Backward::setup(const Eigen::VectorXd& y0) {
  if (const Eval e = mass_.setup(p_, req_.t0, y0); e != Eval::ok) return e;
  matrix_.setup(p_, req_, mass_, true);
  exact_jacobian_ = matrix_.analytic();
  transposed_.setup(req_, matrix_.sparse());
  products_.setup(p_, req_, mass_, true);
  stepper_ = std::make_unique<RosenbrockStepper>(tab_, p_, mass_, matrix_, norm_, 1);
  for (auto* v : {&lambda_, &ybar_, &ubar_, &u_, &xi_, &v_, &w_, &up_, &down_, &zeta_, &gy0_, &lambda_minus_}) v->setZero(n_);
  for (auto* v : {&mu_, &pv_, &pup_, &pdown_, &gp0_}) v->setZero(np_);
  for (auto& k : kbar_) k.setZero(n_);
  return Eval::ok;
}

// The step from (t, y) with h once more: its stages, W (factorised) and W^T (factorised).
std::string Backward::replay(double t, double h, const Eigen::VectorXd& y) {
  if (stepper_->restart(t, y) != Eval::ok) return p_.last_message();
  const StepAttempt a = stepper_->attempt(t, h, y);
  if (a.kind != StepAttempt::Kind::ok) return a.message.empty() ? "the replayed step failed" : a.message;
  if (!transposed_.factor(matrix_)) return "the transposed iteration matrix is singular";
  return "";
}

void Backward::stage_value(int i, const Eigen::VectorXd& y, Eigen::VectorXd& u) const {
  u = y;
  for (int j = 0; j < i; ++j)
    if (tab_.a[i][j] != 0.0) u.noalias() += tab_.a[i][j] * stepper_->stage(j);
}

// The weight of stage i in the continuous extension at theta:
//   y(theta) = y + sum_i (theta b_i + theta (1 - theta) sum_r theta^r H_ri) k_i.
double Backward::extension_weight(int i, double theta) const {
  double inner = 0;
  for (int r = tab_.dense_rows - 1; r >= 0; --r) inner = tab_.H[r][i] + theta * inner;
  return theta * tab_.b[i] + theta * (1 - theta) * inner;
}

// The replayed step against what the forward pass kept after it (y- at an event, else the
// next start where kept and not moved by a projection): a thousandth of the tolerance apart
// at most. A problem whose equations changed at an event (a mode switch) or that keeps state
// between calls is replayed with other equations than it was solved with: a failure.
std::string Backward::check_replay(const StepRecord& record, std::size_t n) {
  const EventRecord* event = nullptr;
  if (const auto at = record.events.find(n); at != record.events.end()) event = &at->second;
  const std::size_t next = n + 1;
  const Eigen::VectorXd* kept = nullptr;
  if (event) {
    kept = &event->y_minus;
    stepper_->accept();  // the continuous extension, as the forward pass evaluated it
    stepper_->interpolate((event->t - record.t[n]) / record.h[n], u_);
  } else if (!record.moved.count(next)) {
    u_ = stepper_->y_new();
    if (next == record.t.size()) kept = &record.y_end;
    else if (const auto at = record.checkpoints.find(next); at != record.checkpoints.end()) kept = &at->second;
  }
  if (!kept) return "";
  w_ = u_ - *kept;
  const double apart = norm_.rms(w_, *kept, *kept, record.h[n]);
  if (apart <= 1e-3) return "";
  return "replaying the step from t = " + std::to_string(record.t[n]) + " did not give the forward pass's state (" +
         std::to_string(apart) + " tolerances apart): the problem's equations changed since (a mode switched at an "
         "event, or state kept between calls), which the adjoint cannot replay";
}

// G's running integral over the step, as one more component of the system integrated by
// the same stages: kq_i = h gamma (g(U_i) + g_y(y) k_i + h d_i g_t + sum_j C_ij kq_j / h).
Eval Backward::running_stages(double t, double h, const Eigen::VectorXd& y) {
  if (Eval e = running(t, y, gy0_, gp0_); e != Eval::ok) return e;
  double gt = 0;
  if (!p_.autonomous()) {
    const double dt = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), std::abs(h));
    double gplus = 0, gminus = 0;
    if (!terms_.running(t + dt, y.data(), &gplus) || !terms_.running(t - dt, y.data(), &gminus)) return Eval::fatal;
    gt = (gplus - gminus) / (2 * dt);
  }
  for (int i = 0; i < tab_.stages; ++i) {
    stage_value(i, y, u_);
    double g = 0;
    if (!terms_.running(t + tab_.c[i] * h, u_.data(), &g)) return Eval::fatal;
    double rhs = g + gy0_.dot(stepper_->stage(i)) + h * tab_.d[i] * gt;
    for (int j = 0; j < i; ++j) rhs += tab_.C[i][j] / h * kq_[static_cast<std::size_t>(j)];
    kq_[static_cast<std::size_t>(i)] = h * tab_.gamma * rhs;
    value_ += weight_[static_cast<std::size_t>(i)] * kq_[static_cast<std::size_t>(i)];
  }
  return Eval::ok;
}

// The q row of stage i, backward: its weight xq = h gamma kqbar_i reaches the earlier q
// stages, U_i (through g_y(U_i)), p, k_i (through g_y(y) k_i) and y (through g_y's own
// dependence on y along k_i).
Eval Backward::running_stage_back(int i, double t, double h, const Eigen::VectorXd& y) {
  const double xq = h * tab_.gamma * kqbar_[static_cast<std::size_t>(i)];
  for (int j = 0; j < i; ++j) kqbar_[static_cast<std::size_t>(j)] += tab_.C[i][j] / h * xq;
  if (xq == 0.0) return Eval::ok;
  stage_value(i, y, u_);
  if (Eval e = running(t + tab_.c[i] * h, u_, v_, pv_); e != Eval::ok) return e;
  ubar_ += xq * v_;
  mu_ += xq * pv_;
  kbar_[static_cast<std::size_t>(i)] += xq * gy0_;
  if (tab_.d[i] != 0.0 && !p_.autonomous()) zeta_q_ += h * tab_.d[i] * xq;
  const double delta = increment(req_, y, stepper_->stage(i));
  if (delta == 0.0) return Eval::ok;
  w_ = y + delta * stepper_->stage(i);
  if (Eval e = running(t, w_, up_, pup_); e != Eval::ok) return e;
  w_ = y - delta * stepper_->stage(i);
  if (Eval e = running(t, w_, down_, pdown_); e != Eval::ok) return e;
  ybar_ += xq / (2 * delta) * (up_ - down_);
  mu_ += xq / (2 * delta) * (pup_ - pdown_);
  return Eval::ok;
}

// (d/dy J(y) k)^T xi and (d/dp J(y) k)^T xi by central differences of J^T xi and
// f_p^T xi along k: the terms of a Rosenbrock step's exact Jacobian. Where J itself is a
// difference quotient its rounding, divided by the small increment, would swamp the term
// (measured: 0.4 % on a free fall's dx/dv): four-corner differences of f instead.
Eval Backward::second_derivative_terms(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& k,
                                       const Eigen::VectorXd& xi) {
  const double delta = increment(req_, y, k);
  if (delta == 0.0) return Eval::ok;
  w_ = y + delta * k;
  Eval e = pvjp(t, w_, xi, pup_);
  w_ = y - delta * k;
  if (e == Eval::ok) e = pvjp(t, w_, xi, pdown_);
  if (e != Eval::ok) return e;
  mu_ += (pup_ - pdown_) / (2 * delta);
  if (!exact_jacobian_) return mixed_derivative(t, y, 0.0, delta, k, xi);
  w_ = y + delta * k;
  e = vjp(t, w_, xi, up_);
  w_ = y - delta * k;
  if (e == Eval::ok) e = vjp(t, w_, xi, down_);
  if (e != Eval::ok) return e;
  ybar_ += (up_ - down_) / (2 * delta);
  return Eval::ok;
}

// ybar_m += xi^T d^2 f / (d(t, y) along (dt, delta v)) d y_m for every m, from f alone: the
// four corners (t +- a dt, y +- a delta v +- b e_m), increments of eps^(1/4) of each
// direction's scale balancing truncation against the rounding the four values divide by a b.
Eval Backward::mixed_derivative(double t, const Eigen::VectorXd& y, double dt, double delta, const Eigen::VectorXd& v,
                                const Eigen::VectorXd& xi) {
  const double eps = std::numeric_limits<double>::epsilon(), grow = std::pow(eps, 0.25) / std::cbrt(eps);
  const double a = grow;  // along the direction, whose increments (dt, delta) are of eps^(1/3)
  static constexpr double along[4] = {1.0, 1.0, -1.0, -1.0}, across[4] = {1.0, -1.0, 1.0, -1.0};
  for (Eigen::Index m = 0; m < n_; ++m) {
    const double b = std::pow(eps, 0.25) * noise_scale(y[m], req_.rtol[m], req_.atol[m]);
    double sum = 0;
    for (int corner = 0; corner < 4; ++corner) {
      w_ = y + (along[corner] * a * delta) * v;
      w_[m] += across[corner] * b;
      if (Eval e = p_.rhs(t + along[corner] * a * dt, w_, up_); e != Eval::ok) return e;
      sum += along[corner] * across[corner] * xi.dot(up_);
    }
    ybar_[m] += sum / (4 * a * b);
  }
  return Eval::ok;
}

// The f_t (and g_t) terms of every stage at once: zeta = sum_i h d_i xi_i meets the
// derivatives of f_t in y and p, by central differences in t.
Eval Backward::time_terms(double t, double h, const Eigen::VectorXd& y) {
  if (p_.autonomous()) return Eval::ok;
  const double dt = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), std::abs(h));
  if (zeta_.squaredNorm() > 0 && !exact_jacobian_) {
    Eval e = pvjp(t + dt, y, zeta_, pup_);
    if (e == Eval::ok) e = pvjp(t - dt, y, zeta_, pdown_);
    if (e == Eval::ok) e = mixed_derivative(t, y, dt, 0.0, zeta_, zeta_);
    if (e != Eval::ok) return e;
    mu_ += (pup_ - pdown_) / (2 * dt);
  } else if (zeta_.squaredNorm() > 0) {
    Eval e = vjp(t + dt, y, zeta_, up_);
    if (e == Eval::ok) e = vjp(t - dt, y, zeta_, down_);
    if (e == Eval::ok) e = pvjp(t + dt, y, zeta_, pup_);
    if (e == Eval::ok) e = pvjp(t - dt, y, zeta_, pdown_);
    if (e != Eval::ok) return e;
    ybar_ += (up_ - down_) / (2 * dt);
    mu_ += (pup_ - pdown_) / (2 * dt);
  }
  if (zeta_q_ != 0.0) {
    if (Eval e = running(t + dt, y, up_, pup_); e != Eval::ok) return e;
    if (Eval e = running(t - dt, y, down_, pdown_); e != Eval::ok) return e;
    ybar_ += zeta_q_ / (2 * dt) * (up_ - down_);
    mu_ += zeta_q_ / (2 * dt) * (pup_ - pdown_);
  }
  return Eval::ok;
}

// lambda from the step's end back to its start (mu gathers the step's part of dG/dp).
Eval Backward::step_back(double t, double h, const Eigen::VectorXd& y, const EventRecord* event) {
  const int s = tab_.stages;
  const bool with_running = terms_.has_running();
  // What the step hands on: y_new (weights b_i on the stages), or, when an event cut it
  // short, y- on its continuous extension, through the event's jump transposed.
  const double theta = event ? (event->t - t) / h : 1.0;
  for (int i = 0; i < s; ++i) weight_[static_cast<std::size_t>(i)] = event ? extension_weight(i, theta) : tab_.b[i];
  if (event) {
    lambda_minus_.noalias() = event->jump.leftCols(n_).transpose() * lambda_;
    mu_.noalias() += event->jump.rightCols(np_).transpose() * lambda_;
    lambda_ = lambda_minus_;
  }
  if (with_running)
    if (Eval e = running_stages(t, h, y); e != Eval::ok) return e;
  for (int i = 0; i < s; ++i) {
    kbar_[static_cast<std::size_t>(i)] = weight_[static_cast<std::size_t>(i)] * lambda_;
    kqbar_[static_cast<std::size_t>(i)] = weight_[static_cast<std::size_t>(i)];
  }
  ybar_ = lambda_;
  zeta_.setZero();
  zeta_q_ = 0;
  for (int i = s - 1; i >= 0; --i) {
    ubar_.setZero();
    if (with_running)
      if (Eval e = running_stage_back(i, t, h, y); e != Eval::ok) return e;
    transposed_.solve(kbar_[static_cast<std::size_t>(i)], xi_);
    const double ti = t + tab_.c[i] * h;
    Eval e = Eval::ok;
    if (i == 0) {
      JacobianTransposeProducts::times(matrix_, xi_, v_);
      e = pvjp(ti, y, xi_, pv_);
    } else {
      stage_value(i, y, u_);
      e = vjp(ti, u_, xi_, v_);
      if (e == Eval::ok) e = pvjp(ti, u_, xi_, pv_);
    }
    if (e != Eval::ok) return e;
    ubar_ += v_;
    mu_ += pv_;
    ybar_ += ubar_;
    mass_transpose_apply(mass_, xi_, w_);
    for (int j = 0; j < i; ++j) {
      if (tab_.a[i][j] != 0.0) kbar_[static_cast<std::size_t>(j)] += tab_.a[i][j] * ubar_;
      if (tab_.C[i][j] != 0.0) kbar_[static_cast<std::size_t>(j)] += (tab_.C[i][j] / h) * w_;
    }
    if (tab_.d[i] != 0.0) zeta_ += (h * tab_.d[i]) * xi_;
    if (e = second_derivative_terms(t, y, stepper_->stage(i), xi_); e != Eval::ok) return e;
  }
  if (Eval e = time_terms(t, h, y); e != Eval::ok) return e;
  lambda_ = ybar_;
  return Eval::ok;
}

// The data terms at t (a step boundary: the forward pass landed there), at the state there.
void Backward::data_jump(double t, const Eigen::VectorXd& y) {
  terms_.record(t, y);
  if (const auto at = terms_.jumps().find(t); at != terms_.jumps().end()) lambda_ += at->second.jump_y;
}

// y0's algebraic components follow p and the differential ones (index 1: through the
// algebraic equations; Hessenberg index 2: through the hidden constraints), as the forward
// sensitivities start (SensitivityEquations::consistent_initial). With s0 = dy0/d(p, y0_d):
// dG/dp gains lambda_a^T s0_a,p and dG/dy0_d = lambda_d + lambda_a^T s0_a,d (index 1; at
// index 2 dG/dy0 is NaN: y0 cannot move off the constraints, one component at a time).
Eval Backward::consistent_start(double t0, const Eigen::VectorXd& y0) {
  std::vector<Eigen::Index> algebraic, differential;
  for (Eigen::Index i = 0; i < n_; ++i) (p_.is_algebraic(i) ? algebraic : differential).push_back(i);
  if (algebraic.empty()) return Eval::ok;
  SolveRequest columns = req_;
  columns.adjoint = nullptr;
  columns.sens_initial.clear();
  columns.sens_index.clear();
  for (Eigen::Index k = 0; k < np_; ++k) columns.sens_index.push_back(static_cast<std::int32_t>(k));
  // At index 2 y0 moves only along the constraints: no free direction of y0_d alone.
  const bool free_y0 = max_dae_index(p_.info()) < 2;
  if (free_y0)
    for (const Eigen::Index i : differential) columns.sens_index.push_back(static_cast<std::int32_t>(-1 - i));
  SensitivityEquations equations(p_, columns);
  Eigen::MatrixXd s0;
  if (!equations.consistent_initial(t0, y0, s0, &failure_)) {
    failure_ = "the consistent start's derivatives: " + failure_;
    return Eval::fatal;
  }
  const Eigen::RowVectorXd lambda_a = lambda_(algebraic).transpose();
  mu_ += (lambda_a * s0(algebraic, Eigen::seqN(0, np_))).transpose();
  if (!free_y0) {
    lambda_.setConstant(std::numeric_limits<double>::quiet_NaN());
    return Eval::ok;
  }
  const Eigen::RowVectorXd through = lambda_a * s0(algebraic, Eigen::seqN(np_, static_cast<Eigen::Index>(differential.size())));
  Eigen::VectorXd start = Eigen::VectorXd::Zero(n_);
  for (std::size_t j = 0; j < differential.size(); ++j)
    start[differential[j]] = lambda_[differential[j]] + through[static_cast<Eigen::Index>(j)];
  lambda_ = start;
  return Eval::ok;
}

std::string Backward::segment_states(const StepRecord& record, std::size_t first, std::size_t count,
                                     std::vector<Eigen::VectorXd>& states) {
  states.resize(count);
  states[0] = record.checkpoints.at(first);
  for (std::size_t j = 1; j < count; ++j) {
    const std::size_t n = first + j - 1;
    if (std::string why = replay(record.t[n], record.h[n], states[j - 1]); !why.empty()) return why;
    states[j] = stepper_->y_new();
  }
  return "";
}

SolveOutcome Backward::run(const StepRecord& record) {
  const std::size_t steps = record.t.size();
  const Eigen::VectorXd y0 = steps > 0 ? record.checkpoints.at(0) : req_.y0;
  const Eigen::VectorXd y_end = steps > 0 ? record.y_end : req_.y0;
  if (setup(y0) != Eval::ok) return {Status::evaluation_failure, p_.last_message(), req_.t0};
  double phi = 0;
  terms_.record(req_.tend, y_end);
  if (!terms_.terminal(req_.tend, y_end, &phi)) return {Status::evaluation_failure, terms_.failure(), req_.tend};
  if (const auto at = terms_.jumps().find(req_.tend); at != terms_.jumps().end()) lambda_ = at->second.jump_y;
  std::vector<std::size_t> starts;
  for (const auto& [step, y] : record.checkpoints) starts.push_back(step);
  std::vector<Eigen::VectorXd> states;
  for (std::size_t m = starts.size(); m-- > 0;) {
    const std::size_t first = starts[m], end = m + 1 < starts.size() ? starts[m + 1] : steps;
    if (std::string why = segment_states(record, first, end - first, states); !why.empty())
      return {Status::evaluation_failure, why, record.t[first]};
    for (std::size_t n = end; n-- > first;) {
      if (n + 1 < steps) data_jump(record.t[n + 1], n + 1 < end ? states[n + 1 - first] : record.checkpoints.at(end));
      const Eigen::VectorXd& y = states[n - first];
      if (std::string why = replay(record.t[n], record.h[n], y); !why.empty())
        return {Status::evaluation_failure, why, record.t[n]};
      if (std::string why = check_replay(record, n); !why.empty())
        return {Status::unsupported_problem, why, record.t[n]};
      const auto event = record.events.find(n);
      if (step_back(record.t[n], record.h[n], y, event == record.events.end() ? nullptr : &event->second) != Eval::ok)
        return {Status::evaluation_failure, terms_.failure().empty() ? p_.last_message() : terms_.failure(), record.t[n]};
    }
  }
  data_jump(req_.t0, y0);
  if (consistent_start(req_.t0, y0) != Eval::ok)
    return {Status::evaluation_failure, failure_.empty() ? p_.last_message() : failure_, req_.t0};
  if (!terms_.failure().empty()) return {Status::evaluation_failure, terms_.failure(), req_.t0};
  const dk_functional& g = *req_.adjoint;
  for (std::size_t k = 0; k < g.ndata; ++k)
    if (terms_.jumps().find(g.data_t[k]) == terms_.jumps().end())
      return {Status::internal_error, "the data time " + std::to_string(g.data_t[k]) + " was not a step's end",
              g.data_t[k]};
  for (const auto& [t, jump] : terms_.jumps()) mu_ += jump.jump_p;
  std::copy(mu_.data(), mu_.data() + np_, req_.gradient);
  if (req_.gradient_y0) std::copy(lambda_.data(), lambda_.data() + n_, req_.gradient_y0);
  if (req_.functional_value) *req_.functional_value = terms_.data_value() + phi + value_;
  return {Status::success, "", req_.tend};
}
}  // namespace daekit::rosenbrock_adjoint
