// Smooth problems with known solutions for the convergence-order tests.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <daekit/sdk/problem.hpp>

namespace daekit::test {

// y' = -y^2 + ..., a nonlinear non-autonomous pair with exact solution
// y1 = 1/(1+t), y2 = sin t:  y1' = -y1^2,  y2' = -2 (y2 - sin t) + cos t.
class SmoothOde : public Problem {
 public:
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit SmoothOde(const Params&) {
    info_.name = "smooth_ode";
    info_.n = 2;
    info_.analytic_jacobian = true;
    info_.analytic_dfdt = true;
  }
  static Eigen::VectorXd exact(double t) { return Eigen::Vector2d(1.0 / (1.0 + t), std::sin(t)); }
  void initial_values(Vector y, Vector) override { y = exact(0.0); }
  Eval rhs(double t, ConstVector y, Vector f) override {
    f[0] = -y[0] * y[0];
    f[1] = -2.0 * (y[1] - std::sin(t)) + std::cos(t);
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector y, MatrixView j) override {
    j(0, 0) = -2.0 * y[0];
    j(1, 1) = -2.0;
    return Eval::ok;
  }
  Eval dfdt(double t, ConstVector, Vector df) override {
    df[0] = 0.0;
    df[1] = 2.0 * std::cos(t) - std::sin(t);
    return Eval::ok;
  }
};

// Index-1 DAE with a nonlinear constraint: y1' = -y1 + y2^2, 0 = y2^3 + y2 - y1^3 - y1
// (so y2 = y1, as x^3 + x is monotone), with y1(0) = 1/2: y1 = y2 = 1/(1 + e^t).
class SmoothDae : public Problem {
 public:
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit SmoothDae(const Params&) {
    info_.name = "smooth_dae";
    info_.n = 2;
    info_.mass = MassKind::constant;
    info_.differential = {1, 0};
    info_.analytic_jacobian = true;
    info_.autonomous = true;
  }
  static Eigen::VectorXd exact(double t) {
    const double v = 1.0 / (1.0 + std::exp(t));
    return Eigen::Vector2d(v, v);
  }
  void initial_values(Vector y, Vector) override { y = exact(0.0); }
  Eval rhs(double, ConstVector y, Vector f) override {
    f[0] = -y[0] + y[1] * y[1];
    f[1] = y[1] * y[1] * y[1] + y[1] - y[0] * y[0] * y[0] - y[0];
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector y, MatrixView j) override {
    j(0, 0) = -1.0, j(0, 1) = 2.0 * y[1];
    j(1, 0) = -3.0 * y[0] * y[0] - 1.0, j(1, 1) = 3.0 * y[1] * y[1] + 1.0;
    return Eval::ok;
  }
  Eval mass(double, ConstVector, MatrixView m) override {
    m(0, 0) = 1.0;
    return Eval::ok;
  }
};

// A fast harmonic oscillator, y1' = w y2, y2' = -w y1 with w = 10: its solution is
// entire, so the very high orders (Radau IIA with 7 stages, order 13) show their rate
// for h w around 1, where the errors are still far above round-off.
class Oscillator : public Problem {
 public:
  static constexpr double w = 10.0;
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit Oscillator(const Params&) {
    info_.name = "oscillator";
    info_.n = 2;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
  }
  static Eigen::VectorXd exact(double t) { return Eigen::Vector2d(std::cos(w * t), -std::sin(w * t)); }
  void initial_values(Vector y, Vector) override { y = exact(0.0); }
  Eval rhs(double, ConstVector y, Vector f) override {
    f[0] = w * y[1];
    f[1] = -w * y[0];
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector, MatrixView j) override {
    j(0, 1) = w;
    j(1, 0) = -w;
    return Eval::ok;
  }
};

// Prothero and Robinson's equation y' = L (y - g(t)) + g'(t), g = sin t + cos 2t, exact
// solution y = g: not autonomous, and as stiff as L (a template parameter: -1e6 stiff,
// -1 not). Where a Rosenbrock method's time-derivative weights are wrong, its estimate
// stops tracking the error here while autonomous problems show nothing.
template <int Log10MinusL>
class ProtheroRobinson : public Problem {
 public:
  static constexpr double L = -[] {
    double v = 1.0;
    for (int i = 0; i < Log10MinusL; ++i) v *= 10.0;
    return v;
  }();
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit ProtheroRobinson(const Params&) {
    info_.name = "prothero_robinson";
    info_.n = 1;
    info_.analytic_jacobian = true;
    info_.analytic_dfdt = true;
  }
  static double g(double t) { return std::sin(t) + std::cos(2.0 * t); }
  static double dg(double t) { return std::cos(t) - 2.0 * std::sin(2.0 * t); }
  static Eigen::VectorXd exact(double t) { return Eigen::VectorXd::Constant(1, g(t)); }
  void initial_values(Vector y, Vector) override { y[0] = g(0.0); }
  Eval rhs(double t, ConstVector y, Vector f) override {
    f[0] = L * (y[0] - g(t)) + dg(t);
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector, MatrixView j) override {
    j(0, 0) = L;
    return Eval::ok;
  }
  Eval dfdt(double t, ConstVector, Vector df) override {
    df[0] = -L * dg(t) - std::sin(t) - 4.0 * std::cos(2.0 * t);
    return Eval::ok;
  }
};

}  // namespace daekit::test
