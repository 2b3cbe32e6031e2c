#include "daekit/kits/rosenbrock/adjoint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <vector>

#include "daekit/kits/rosenbrock/stepper.hpp"
#include "daekit/numerics/adjoint_linear_algebra.hpp"
#include "daekit/numerics/adjoint_terms.hpp"
#include "daekit/numerics/one_step_solve.hpp"

#include <Eigen/SparseLU>

namespace daekit {
namespace {

// What the forward pass leaves for the backward one.
struct StepRecord {
  std::vector<double> t, h;                             // each accepted step's start and size
  std::map<std::size_t, Eigen::VectorXd> checkpoints;  // step index -> y at its start
  Eigen::VectorXd y_end;
};

// The forward stepper, recording what it accepts. A state the driver moved after a step
// (onto a sign constraint) is a checkpoint too: replaying the step would not give it.
class RecordingStepper {
 public:
  RecordingStepper(std::unique_ptr<RosenbrockStepper> inner, StepRecord& record, int every)
      : inner_(std::move(inner)), record_(record), every_(static_cast<std::size_t>(every)) {}

  const RosenbrockStepper& inner() const { return *inner_; }
  Eval start(double t0, const Eigen::VectorXd& y0) { return inner_->start(t0, y0); }
  Eval restart(double t, const Eigen::VectorXd& y) { return inner_->restart(t, y); }
  const Eigen::VectorXd& f_start() const { return inner_->f_start(); }
  StepAttempt attempt(double t, double h, const Eigen::VectorXd& y) {
    t_ = t, h_ = h, y_ = &y;
    return inner_->attempt(t, h, y);
  }
  const Eigen::VectorXd& y_new() const { return inner_->y_new(); }
  void accept() {
    const std::size_t n = record_.t.size();
    if (keep_next_ || n % every_ == 0) record_.checkpoints[n] = *y_;
    keep_next_ = false;
    record_.t.push_back(t_), record_.h.push_back(h_);
    record_.y_end = inner_->y_new();
    inner_->accept();
  }
  void projected(const Eigen::VectorXd& y) {
    inner_->projected(y);
    record_.y_end = y;
    keep_next_ = true;
  }
  void interpolate(double theta, Eigen::VectorXd& out) { inner_->interpolate(theta, out); }
  int order() const { return inner_->order(); }
  int dense_degree() const { return inner_->dense_degree(); }

 private:
  std::unique_ptr<RosenbrockStepper> inner_;
  StepRecord& record_;
  std::size_t every_;
  double t_ = 0, h_ = 0;
  const Eigen::VectorXd* y_ = nullptr;
  bool keep_next_ = false;
};

// The largest multiple of v that moves no component of y by more than eps^(1/3) of its
// scale (its size, or the size below which the tolerances call it noise): the increment of
// the central differences of the second-derivative terms.
double increment(const SolveRequest& req, const Eigen::VectorXd& y, const Eigen::VectorXd& v) {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double noise = req.rtol[i] > 0.0 ? req.atol[i] / req.rtol[i] : req.atol[i];
    largest = std::max(largest, std::abs(v[i]) / (std::abs(y[i]) + noise + 1e-300));
  }
  return largest > 0.0 ? std::cbrt(std::numeric_limits<double>::epsilon()) / largest : 0.0;
}

class Backward {
 public:
  Backward(ProblemView& problem, const SolveRequest& request, const tableaus::RosenbrockTableau& tableau,
           FunctionalTerms& terms)
      : p_(problem), req_(request), tab_(tableau), terms_(terms), n_(problem.size()),
        np_(static_cast<Eigen::Index>(problem.np())), norm_(ErrorNorm::for_request(request, problem)) {}

  // The backward pass over the recorded steps; the gradient, dG/dy0 and G into the request.
  SolveOutcome run(const StepRecord& record);

 private:
  Eval setup(const Eigen::VectorXd& y0);
  std::string replay(double t, double h, const Eigen::VectorXd& y);
  Eval step_back(double t, double h, const Eigen::VectorXd& y);
  Eval running_stages(double t, double h, const Eigen::VectorXd& y);
  Eval running_stage_back(int i, double t, double h, const Eigen::VectorXd& y);
  Eval second_derivative_terms(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& k, const Eigen::VectorXd& xi);
  Eval time_terms(double t, double h, const Eigen::VectorXd& y);
  Eval consistent_start(double t0, const Eigen::VectorXd& y0);
  void data_jump(double t, const Eigen::VectorXd& y);
  // The states at the starts of steps [first, first + count) (the checkpoint, then replays).
  std::string segment_states(const StepRecord& record, std::size_t first, std::size_t count,
                             std::vector<Eigen::VectorXd>& states);
  void stage_value(int i, const Eigen::VectorXd& y, Eigen::VectorXd& u) const;
  Eval vjp(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    return products_.times(t, y, v, out);
  }
  Eval pvjp(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    return p_.dfdp_transpose_times(t, y, v, out);
  }
  // g's gradients at (t, y) into gy, gp.
  Eval running(double t, const Eigen::VectorXd& y, Eigen::VectorXd& gy, Eigen::VectorXd& gp, double* g = nullptr) {
    if (!terms_.running(t, y.data(), g)) return Eval::fatal;
    gy = terms_.g_y(), gp = terms_.g_p();
    return Eval::ok;
  }

  ProblemView& p_;
  const SolveRequest& req_;
  const tableaus::RosenbrockTableau& tab_;
  FunctionalTerms& terms_;
  Eigen::Index n_, np_;
  ErrorNorm norm_;
  MassMatrix mass_;
  IterationMatrix matrix_;
  TransposedIterationMatrix transposed_;
  JacobianTransposeProducts products_;
  std::unique_ptr<RosenbrockStepper> stepper_;
  std::string failure_;

  Eigen::VectorXd lambda_, mu_;  // dG/dy at the current point, dG/dp so far
  double value_ = 0;             // G's running integral so far
  double zeta_q_ = 0;            // sum_i h d_i xq_i: the g_t terms' weight
  std::array<Eigen::VectorXd, tableaus::max_rosenbrock_stages> kbar_;
  std::array<double, tableaus::max_rosenbrock_stages> kq_{}, kqbar_{};
  Eigen::VectorXd ybar_, ubar_, u_, xi_, v_, w_, up_, down_, pv_, pup_, pdown_, zeta_, gy0_, gp0_, f_;
};

Eval Backward::setup(const Eigen::VectorXd& y0) {
  if (const Eval e = mass_.setup(p_, req_.t0, y0); e != Eval::ok) return e;
  matrix_.setup(p_, req_, mass_, true);
  transposed_.setup(req_, matrix_.sparse());
  products_.setup(p_, req_, mass_, true);
  stepper_ = std::make_unique<RosenbrockStepper>(tab_, p_, mass_, matrix_, norm_, 1);
  for (auto* v : {&lambda_, &ybar_, &ubar_, &u_, &xi_, &v_, &w_, &up_, &down_, &zeta_, &gy0_}) v->setZero(n_);
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
    value_ += tab_.b[i] * kq_[static_cast<std::size_t>(i)];
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
// f_p^T xi along k: the terms of a Rosenbrock step's exact Jacobian.
Eval Backward::second_derivative_terms(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& k,
                                       const Eigen::VectorXd& xi) {
  const double delta = increment(req_, y, k);
  if (delta == 0.0) return Eval::ok;
  w_ = y + delta * k;
  Eval e = vjp(t, w_, xi, up_);
  if (e == Eval::ok) e = pvjp(t, w_, xi, pup_);
  w_ = y - delta * k;
  if (e == Eval::ok) e = vjp(t, w_, xi, down_);
  if (e == Eval::ok) e = pvjp(t, w_, xi, pdown_);
  if (e != Eval::ok) return e;
  ybar_ += (up_ - down_) / (2 * delta);
  mu_ += (pup_ - pdown_) / (2 * delta);
  return Eval::ok;
}

// The f_t (and g_t) terms of every stage at once: zeta = sum_i h d_i xi_i meets the
// derivatives of f_t in y and p, by central differences in t.
Eval Backward::time_terms(double t, double h, const Eigen::VectorXd& y) {
  if (p_.autonomous()) return Eval::ok;
  const double dt = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), std::abs(h));
  if (zeta_.squaredNorm() > 0) {
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
Eval Backward::step_back(double t, double h, const Eigen::VectorXd& y) {
  const int s = tab_.stages;
  const bool with_running = terms_.has_running();
  if (with_running)
    if (Eval e = running_stages(t, h, y); e != Eval::ok) return e;
  for (int i = 0; i < s; ++i) {
    kbar_[static_cast<std::size_t>(i)] = tab_.b[i] * lambda_;
    kqbar_[static_cast<std::size_t>(i)] = tab_.b[i];
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

// y0's algebraic components follow the differential ones and p through g(y, p) = 0 (the
// algebraic rows of f; index 1: g_a is non-singular): with g_a^T nu = lambda_a,
// dG/dy0_d = lambda_d - g_d^T nu and dG/dp gains -g_p^T nu.
Eval Backward::consistent_start(double t0, const Eigen::VectorXd& y0) {
  const auto& rows = mass_.zero_rows();
  const auto& cols = mass_.zero_columns();
  if (rows.empty()) return Eval::ok;
  f_.resize(n_);
  Eval e = p_.rhs(t0, y0, f_);
  if (e == Eval::ok) e = matrix_.evaluate_jacobian(t0, y0, f_);
  if (e != Eval::ok) return e;
  const auto na = static_cast<Eigen::Index>(rows.size());
  std::vector<Eigen::Index> row_at(static_cast<std::size_t>(n_), -1), col_at(static_cast<std::size_t>(n_), -1);
  for (Eigen::Index k = 0; k < na; ++k)
    row_at[static_cast<std::size_t>(rows[static_cast<std::size_t>(k)])] = k,
    col_at[static_cast<std::size_t>(cols[static_cast<std::size_t>(k)])] = k;
  std::vector<Eigen::Triplet<double>> entries;
  auto keep = [&](Eigen::Index i, Eigen::Index j, double value) {
    const Eigen::Index r = row_at[static_cast<std::size_t>(i)], c = col_at[static_cast<std::size_t>(j)];
    if (r >= 0 && c >= 0 && value != 0.0) entries.emplace_back(c, r, value);  // g_a^T
  };
  if (matrix_.sparse()) {
    const auto& jac = matrix_.sparse_jacobian();
    for (Eigen::Index j = 0; j < jac.outerSize(); ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(jac, j); it; ++it) keep(it.row(), it.col(), it.value());
  } else {
    for (Eigen::Index j = 0; j < n_; ++j)
      for (Eigen::Index i = 0; i < n_; ++i) keep(i, j, matrix_.dense_jacobian()(i, j));
  }
  Eigen::SparseMatrix<double> ga_t(na, na);
  ga_t.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(ga_t);
  Eigen::VectorXd lambda_a(na);
  for (Eigen::Index k = 0; k < na; ++k) lambda_a[k] = lambda_[cols[static_cast<std::size_t>(k)]];
  const Eigen::VectorXd nu = lu.info() == Eigen::Success ? Eigen::VectorXd(lu.solve(lambda_a)) : Eigen::VectorXd();
  if (lu.info() != Eigen::Success || !nu.allFinite()) {
    failure_ = "the algebraic equations' Jacobian is singular at t0: the start is not of index 1";
    return Eval::fatal;
  }
  v_.setZero(n_);
  for (Eigen::Index k = 0; k < na; ++k) v_[rows[static_cast<std::size_t>(k)]] = nu[k];
  JacobianTransposeProducts::times(matrix_, v_, w_);
  lambda_ -= w_;
  if (e = pvjp(t0, y0, v_, pv_); e != Eval::ok) return e;
  mu_ -= pv_;
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
      if (step_back(record.t[n], record.h[n], y) != Eval::ok)
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

}  // namespace

std::string rosenbrock_adjoint_refusal(ProblemView& problem, const tableaus::RosenbrockTableau& tableau,
                                       int max_jacobian_age) {
  const std::string solver(tableau.name);
  if (std::string why = adjoint_refusal(problem, solver); !why.empty()) return why;
  if (max_dae_index(problem.info()) >= 2)
    return solver + "'s adjoint takes ODEs and index-1 DAEs: problem '" + std::string(problem.info().name) +
           "' has components of index 2 or more, whose consistent start it does not differentiate";
  if (max_jacobian_age > 1)
    return solver + "'s adjoint differentiates steps with a fresh Jacobian each: give max_jacobian_age=1";
  return "";
}

SolveOutcome rosenbrock_adjoint_solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                                      const tableaus::RosenbrockTableau& tableau,
                                      const RosenbrockAdjointSettings& settings) {
  // The forward pass lands on every data time: the data terms then sit at step boundaries.
  SolveRequest forward = request;
  const dk_functional& g = *request.adjoint;
  const double dir = request.direction();
  for (std::size_t k = 0; k < g.ndata; ++k)
    if (dir * (g.data_t[k] - request.t0) > 0 && dir * (request.tend - g.data_t[k]) > 0)
      forward.tstops.push_back(g.data_t[k]);
  std::sort(forward.tstops.begin(), forward.tstops.end(), [dir](double a, double b) { return dir * a < dir * b; });
  forward.tstops.erase(std::unique(forward.tstops.begin(), forward.tstops.end()), forward.tstops.end());

  StepRecord record;
  const int every = std::max(1, settings.checkpoint_steps);
  SolveOutcome out = solve_one_step(
      problem, forward, sink, tableau.order, /*allow_sparse=*/true,
      [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm) {
        auto stepper = std::make_unique<RosenbrockStepper>(tableau, problem, mass, matrix, norm, 1);
        return std::make_unique<RecordingStepper>(std::move(stepper), record, every);
      },
      [&](const RecordingStepper& stepper) {
        return make_controller(settings.controller, stepper.inner().error_order(), settings.limits);
      });
  if (!is_success(out.status)) return out;
  FunctionalTerms terms(g, problem.size(), static_cast<Eigen::Index>(problem.np()));
  Backward backward(problem, request, tableau, terms);
  const SolveOutcome back = backward.run(record);
  if (back.status != Status::success) return {back.status, "in the backward (adjoint) pass: " + back.message, back.t_reached};
  return out;
}

}  // namespace daekit
