// What the CVODES and IDAS adjoint drivers share: the functional's terms (the running
// term with its gradients; the data terms summed per time for the backward pass's jumps),
// the times the forward pass stops at and the backward pass restarts at, the tolerances
// of the gradient's quadrature, and the problems neither driver takes.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/sdk/solver.hpp>
#include <map>
#include <string>
#include <vector>

#include "linear_algebra.hpp"

namespace daekit::plugins::sundials {

// The data terms at one time: sum r_k dr_k/dy and sum r_k dr_k/dp, and where the forward
// pass was there (a DAE's jump is projected, and its adjoint restarted, at that point).
struct DataJump {
  Eigen::VectorXd jump_y, jump_p;
  Eigen::VectorXd y;
};

class FunctionalTerms {
 public:
  FunctionalTerms(const dk_functional& g, Eigen::Index n, Eigen::Index np) : g_(g), n_(n), np_(np) {
    g_y_.setZero(n), g_p_.setZero(np);
  }

  bool has_running() const { return g_.running != nullptr; }
  // g(t, y) into *value (when given), its gradients into g_y() and g_p(); false (with
  // failure() set) when the functional failed.
  bool running(double t, const double* y, double* value) {
    double g = 0;
    if (g_.running(g_.env, t, y, &g, g_y_.data(), g_p_.data()) != 0) {
      failure_ = "the functional's running term failed at t = " + std::to_string(t);
      return false;
    }
    if (value) *value = g;
    return true;
  }
  const Eigen::VectorXd& g_y() const { return g_y_; }
  const Eigen::VectorXd& g_p() const { return g_p_; }

  // The data terms at t, where the forward pass is at y: kept for the backward jump
  // there, their 1/2 r^2 added to G.
  void record(double t, const Eigen::VectorXd& y) {
    Eigen::VectorXd dr_dy(n_), dr_dp(np_);
    for (std::size_t k = 0; k < g_.ndata; ++k) {
      if (g_.data_t[k] != t) continue;
      double r = 0;
      dr_dy.setZero(), dr_dp.setZero();
      if (g_.data_term(g_.env, k, y.data(), &r, dr_dy.data(), dr_dp.data()) != 0) {
        failure_ = "the functional's data term " + std::to_string(k + 1) + " failed";
        return;
      }
      DataJump& jump = jumps_[t];
      if (jump.jump_y.size() == 0) jump.jump_y.setZero(n_), jump.jump_p.setZero(np_), jump.y = y;
      jump.jump_y += r * dr_dy, jump.jump_p += r * dr_dp;
      data_value_ += 0.5 * r * r;
    }
  }
  // phi(y(T)) into *value, phi_y and phi_p added to the jump at T (made when absent).
  bool terminal(double tend, const Eigen::VectorXd& y, double* value) {
    if (!g_.terminal) return true;
    Eigen::VectorXd phi_y = Eigen::VectorXd::Zero(n_), phi_p = Eigen::VectorXd::Zero(np_);
    if (g_.terminal(g_.env, y.data(), value, phi_y.data(), phi_p.data()) != 0) {
      failure_ = "the functional's terminal term failed";
      return false;
    }
    DataJump& jump = jumps_[tend];
    if (jump.jump_y.size() == 0) jump.jump_y.setZero(n_), jump.jump_p.setZero(np_), jump.y = y;
    jump.jump_y += phi_y, jump.jump_p += phi_p;
    return true;
  }

  std::map<double, DataJump>& jumps() { return jumps_; }
  double data_value() const { return data_value_; }
  const std::string& failure() const { return failure_; }

  // Where the backward pass stops for a jump: the data times strictly inside the span,
  // from the last one back, then t0.
  std::vector<double> backward_stops(const SolveRequest& req) const {
    std::vector<double> times;
    for (const auto& [t, jump] : jumps_)
      if (t != req.tend && t != req.t0) times.push_back(t);
    const double dir = req.direction();
    std::sort(times.begin(), times.end(), [dir](double a, double b) { return dir * a > dir * b; });
    times.push_back(req.t0);
    return times;
  }

 private:
  const dk_functional& g_;
  Eigen::Index n_, np_;
  Eigen::VectorXd g_y_, g_p_;
  std::map<double, DataJump> jumps_;  // by time
  double data_value_ = 0;
  std::string failure_;
};

// mu' = -(f_p^T lambda + g_p) at (t, y, lambda) into out (np values): mu(t0) is the
// integral of f_p^T lambda + g_p over [t0, T]. A SUNDIALS return code.
inline int gradient_integrand(ProblemView& problem, FunctionalTerms& terms, double t, const double* y,
                              const double* lambda, double* out) {
  const Eigen::Index n = problem.size(), np = static_cast<Eigen::Index>(problem.np());
  Eigen::Map<const Eigen::VectorXd> yv(y, n), l(lambda, n);
  Eigen::Map<Eigen::VectorXd> o(out, np);
  if (const Eval e = problem.dfdp_transpose_times(t, yv, l, o); e != Eval::ok) return e == Eval::recoverable ? 1 : -1;
  o = -o;
  if (terms.has_running()) {
    if (!terms.running(t, y, nullptr)) return -1;
    o -= terms.g_p();
  }
  return 0;
}

// J for the backward pass, evaluated once per point: IDAS and CVODES ask for the adjoint's
// right-hand side and its Jacobian at the same (t, y) again and again.
class BackwardJacobian {
 public:
  IterationMatrix matrix;  // set up by the driver (dense, or in the problem's pattern)

  Eval at(ProblemView& problem, double t, const Eigen::Ref<const Eigen::VectorXd>& y) {
    if (valid_ && t == t_ && y == y_) return Eval::ok;
    f_.resize(y.size());
    Eval e = problem.rhs(t, y, f_);
    if (e == Eval::ok) e = matrix.evaluate_jacobian(t, y, f_);
    if (e != Eval::ok) return e;
    t_ = t, y_ = y, valid_ = true;
    return Eval::ok;
  }
  // out = J^T x, with the last point's J.
  void transpose_times(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd& out) const {
    if (matrix.sparse())
      out = matrix.sparse_jacobian().transpose() * x;
    else
      out.noalias() = matrix.dense_jacobian().transpose() * x;
  }
  // (alpha M - J)^T into a SUNDIALS matrix (KLU's in W^T's pattern, or dense).
  void transposed_w_into(double alpha, SUNMatrix out) {
    matrix.assemble(alpha);
    if (matrix.sparse()) {
      wt_ = matrix.sparse_w().transpose();
      copy_sparse(wt_, out);
    } else {
      copy_dense(matrix.dense_w().transpose(), out);
    }
  }

 private:
  Eigen::VectorXd f_, y_;
  double t_ = 0;
  bool valid_ = false;
  Eigen::SparseMatrix<double> wt_;
};

// Where the forward pass stops: the output times, the data times and tend, in the
// direction of integration, each once.
inline std::vector<double> forward_stops(const SolveRequest& req) {
  const dk_functional& g = *req.adjoint;
  std::vector<double> stops(req.saveat.begin(), req.saveat.end());
  stops.insert(stops.end(), g.data_t, g.data_t + g.ndata);
  stops.push_back(req.tend);
  const double dir = req.direction();
  std::sort(stops.begin(), stops.end(), [dir](double a, double b) { return dir * a < dir * b; });
  stops.erase(std::unique(stops.begin(), stops.end()), stops.end());
  return stops;
}

// The forward pass from t0 (y holds y0) to tend, stopping at every forward_stops time
// for the data terms and the output; advance(stop, y) integrates to `stop` and says
// success or why not.
template <class Advance>
SolveOutcome forward_pass(const SolveRequest& req, FunctionalTerms& terms, OutputSink& sink, Eigen::VectorXd& y,
                          Advance&& advance) {
  auto at_stop = [&](double t) -> SolveOutcome {
    terms.record(t, y);
    if (!terms.failure().empty()) return {Status::evaluation_failure, terms.failure(), t};
    if (!sink.emit(t, y)) return {Status::stopped_by_observer, "", t};
    return {Status::success, "", t};
  };
  if (SolveOutcome out = at_stop(req.t0); out.status != Status::success) return out;
  for (const double stop : forward_stops(req)) {
    if (stop == req.t0) continue;
    if (SolveOutcome out = advance(stop, y); out.status != Status::success) return out;
    if (!terms.failure().empty()) return {Status::evaluation_failure, terms.failure(), stop};
    if (SolveOutcome out = at_stop(stop); out.status != Status::success) return out;
  }
  return {Status::success, "", req.tend};
}

// The absolute tolerance of the forward quadrature of G's integral: rtol times its size
// at the start (|g(t0)| over the span; the components' smallest atol there when g(t0) = 0).
inline double running_term_atol(const SolveRequest& req, double g0) {
  const double span = std::abs(req.tend - req.t0);
  return req.rtol[0] * (g0 != 0 ? std::abs(g0) * span : req.atol.minCoeff() * span);
}

// lambda's absolute tolerance, one for every component: lambda = dG/dy carries G's units
// over y's, so y's atol says nothing of it (with a fit's atol of 1e-16 the backward pass
// crept in tiny steps through lambda's zero crossings). 1e-4 rtol times lambda's size: its
// largest jump (phi_y, the data terms; projected for a DAE), or g_y over the span.
inline double lambda_atol(const SolveRequest& req, FunctionalTerms& terms) {
  double scale = 0;
  for (const auto& [t, jump] : terms.jumps()) scale = std::max(scale, jump.jump_y.cwiseAbs().maxCoeff());
  if (terms.has_running() && terms.running(req.t0, req.y0.data(), nullptr))
    scale = std::max(scale, terms.g_y().cwiseAbs().maxCoeff() * std::abs(req.tend - req.t0));
  return 1e-4 * req.rtol[0] * (scale > 0 ? scale : 1.0);
}

// The absolute tolerances of the gradient's quadrature: a thousandth of rtol |G| per
// typical magnitude of p_k (its scale, else its nominal value, else 1).
inline Eigen::VectorXd gradient_atol(const dk_problem_info& info, double rtol, double value) {
  Eigen::VectorXd atol(static_cast<Eigen::Index>(info.np));
  for (Eigen::Index k = 0; k < atol.size(); ++k) {
    const double typical = info.p_scale && info.p_scale[k] > 0 ? info.p_scale[k]
                           : info.p_nominal[k] != 0        ? std::abs(info.p_nominal[k])
                                                           : 1.0;
    atol[k] = 1e-3 * rtol * std::max(std::abs(value), 1e-300) / typical;
  }
  return atol;
}

// What neither adjoint driver takes, in words; "" when the problem is taken.
inline std::string adjoint_refusal(ProblemView& problem, const std::string& solver) {
  if (problem.nroots() > 0 || problem.has_time_events() || problem.wants_step_notification())
    return solver + "'s adjoint does not cross events yet: problem '" + std::string(problem.info().name) +
           "' has root functions, time events or step notifications";
  if (problem.np() == 0) return "problem '" + std::string(problem.info().name) + "' declares no real parameters";
  if (!problem.has_parameter_derivative()) return "problem gives no df/dp, which the adjoint's gradient needs";
  return "";
}

}  // namespace daekit::plugins::sundials
