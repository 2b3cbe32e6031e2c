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

// Twelve coupled nonlinear non-autonomous components, manufactured: y' = g(y) - g(y*(t)) +
// y*'(t) with y*_i = cos(t + i) / (1 + i/10) and, cyclically in i,
//   g(y)_i = -(1 + i/2) y_i + 0.3 y_(i+1) - 0.2 y_(i-1) + 0.25 y_(i-1) y_(i+1).
// Its Jacobian is non-symmetric and no Krylov space of a few vectors is invariant under
// it, so a method whose J is projected onto four Arnoldi vectors (Rosenbrock-Krylov) shows
// the order it keeps with that projection; on SmoothOde's two components every Krylov space
// is the whole space.
class CoupledSmoothOde : public Problem {
 public:
  static constexpr int size = 12;
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit CoupledSmoothOde(const Params&) {
    info_.name = "coupled_smooth_ode";
    info_.n = size;
    info_.analytic_jacobian = true;
    info_.analytic_dfdt = true;
  }
  static int next(int i) { return (i + 1) % size; }
  static int previous(int i) { return (i + size - 1) % size; }
  static Eigen::VectorXd exact(double t) {
    Eigen::VectorXd y(size);
    for (int i = 0; i < size; ++i) y[i] = std::cos(t + i) / (1.0 + 0.1 * i);
    return y;
  }
  static Eigen::VectorXd exact_derivative(double t, int order) {  // d^order y* / dt^order, order 1 or 2
    Eigen::VectorXd d(size);
    for (int i = 0; i < size; ++i)
      d[i] = (order == 1 ? -std::sin(t + i) : -std::cos(t + i)) / (1.0 + 0.1 * i);
    return d;
  }
  static Eigen::VectorXd g(const Eigen::VectorXd& y) {
    Eigen::VectorXd out(size);
    for (int i = 0; i < size; ++i)
      out[i] = -(1.0 + 0.5 * i) * y[i] + 0.3 * y[next(i)] - 0.2 * y[previous(i)] +
               0.25 * y[previous(i)] * y[next(i)];
    return out;
  }
  // (dg/dy)(y) v
  static Eigen::VectorXd g_times(const Eigen::VectorXd& y, const Eigen::VectorXd& v) {
    Eigen::VectorXd out(size);
    for (int i = 0; i < size; ++i) {
      const int p = previous(i), q = next(i);
      out[i] = -(1.0 + 0.5 * i) * v[i] + (0.3 + 0.25 * y[p]) * v[q] + (-0.2 + 0.25 * y[q]) * v[p];
    }
    return out;
  }
  void initial_values(Vector y, Vector) override { y = exact(0.0); }
  Eval rhs(double t, ConstVector y, Vector f) override {
    f = g(y) - g(exact(t)) + exact_derivative(t, 1);
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector y, MatrixView j) override {
    for (int i = 0; i < size; ++i) {
      const int p = previous(i), q = next(i);
      j(i, i) = -(1.0 + 0.5 * i);
      j(i, q) = 0.3 + 0.25 * y[p];
      j(i, p) = -0.2 + 0.25 * y[q];
    }
    return Eval::ok;
  }
  Eval jacobian_vector(double, ConstVector y, ConstVector v, Vector jv) override {
    jv = g_times(y, v);
    return Eval::ok;
  }
  Eval dfdt(double t, ConstVector, Vector df) override {
    df = -g_times(exact(t), exact_derivative(t, 1)) + exact_derivative(t, 2);
    return Eval::ok;
  }
};



// An autonomous nonlinear system of twelve components with a closed form: y = sinh(z)
// componentwise for the linear z' = L z, L = S diag(lambda) S^-1 with S unit upper
// triangular (non-normal) and lambda_i = -(1 + 0.4 i); so y' = sqrt(1 + y^2) .* L asinh(y).
// Its Jacobian is non-symmetric and state-dependent, and its autonomy lets a method whose
// J is projected onto the Krylov space of f(y_n) alone show the order it keeps.
class TransformedLinearOde : public Problem {
 public:
  static constexpr int size = 12;
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit TransformedLinearOde(const Params&) {
    info_.name = "transformed_linear_ode";
    info_.n = size;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
  }
  static Eigen::MatrixXd eigenvectors() {
    Eigen::MatrixXd s = Eigen::MatrixXd::Identity(size, size);
    for (int i = 0; i + 1 < size; ++i) s(i, i + 1) = 0.6;
    for (int i = 0; i + 2 < size; ++i) s(i, i + 2) = -0.3;
    return s;
  }
  static double eigenvalue(int i) { return -(1.0 + 0.4 * i); }
  static const Eigen::MatrixXd& matrix() {
    static const Eigen::MatrixXd l = [] {
      const Eigen::MatrixXd s = eigenvectors();
      Eigen::VectorXd lambda(size);
      for (int i = 0; i < size; ++i) lambda[i] = eigenvalue(i);
      return Eigen::MatrixXd(s * lambda.asDiagonal() * s.inverse());
    }();
    return l;
  }
  static Eigen::VectorXd exact(double t) {
    const Eigen::MatrixXd s = eigenvectors();
    Eigen::VectorXd z0(size), decay(size);
    for (int i = 0; i < size; ++i) z0[i] = std::cos(1.0 + i), decay[i] = std::exp(eigenvalue(i) * t);
    const Eigen::VectorXd z = s * decay.asDiagonal() * s.inverse() * z0;
    return z.array().sinh().matrix();
  }
  void initial_values(Vector y, Vector) override { y = exact(0.0); }
  Eval rhs(double, ConstVector y, Vector f) override {
    const Eigen::VectorXd z = y.array().asinh().matrix();
    f = ((1.0 + y.array().square()).sqrt() * (matrix() * z).array()).matrix();
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector y, MatrixView j) override {
    // d/dy_k of c_i (L z)_i, c = sqrt(1 + y^2), z = asinh(y), dz_k/dy_k = 1 / c_k.
    const Eigen::ArrayXd c = (1.0 + y.array().square()).sqrt();
    const Eigen::VectorXd lz = matrix() * Eigen::VectorXd(y.array().asinh().matrix());
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < size; ++k) j(i, k) = c[i] * matrix()(i, k) / c[k] + (i == k ? y[i] / c[i] * lz[i] : 0.0);
    return Eval::ok;
  }
};

}  // namespace daekit::test
