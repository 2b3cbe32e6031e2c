// The functional G = phi(y(T), p) + int g(t, y, p) dt + sum_k 1/2 r_k(y(t_k), p)^2 of an
// adjoint solve (SolveRequest::adjoint, ABI 1.3 part C), as every adjoint driver reads it:
// the running term with its gradients, the data and terminal terms summed per time (the
// jumps of lambda in the backward pass), the times the forward pass must reach, and the
// problems no driver takes.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

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

// What an adjoint driver does not take, in words; "" when it takes the problem. One that
// crosses events takes root functions and time events, not step notifications (whose
// reactions it cannot replay) or terminal roots (which end the solve at a time that moves
// with p).
inline std::string adjoint_refusal(ProblemView& problem, const std::string& solver, bool crosses_events = false) {
  const std::string name(problem.info().name);
  if (!crosses_events && (problem.nroots() > 0 || problem.has_time_events() || problem.wants_step_notification()))
    return solver + "'s adjoint does not cross events yet: problem '" + name +
           "' has root functions, time events or step notifications";
  if (problem.wants_step_notification())
    return solver + "'s adjoint does not take step notifications: problem '" + name + "' asks for them";
  for (std::size_t i = 0; crosses_events && i < problem.nroots(); ++i)
    if (problem.root_terminal(i))
      return solver + "'s adjoint does not take terminal events (the solve would end at a time that moves with p): "
             "root function " + problem.root_name(i) + " of problem '" + name + "'";
  if (problem.np() == 0) return "problem '" + name + "' declares no real parameters";
  if (!problem.has_parameter_derivative()) return "problem gives no df/dp, which the adjoint's gradient needs";
  return "";
}

}  // namespace daekit
