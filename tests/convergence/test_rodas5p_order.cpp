// Measured convergence order of Rodas5P at fixed step sizes on smooth problems
// with known solutions: the order of the step (theory: 5, for ODEs and for
// index-1 DAEs in mass-matrix form) and of its continuous extension.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/rosenbrock/stepper.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/tableaus/rodas5p.hpp>
#include <functional>
#include <iostream>

using namespace daekit;

namespace {

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

// Index-1 DAE: y1' = -y1 + y2^2, 0 = y2 - y1, with y1(0) = 1/2: y1 = y2 = 1/(1 + e^t).
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
    f[1] = y[1] - y[0];
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector y, MatrixView j) override {
    j(0, 0) = -1.0, j(0, 1) = 2.0 * y[1];
    j(1, 0) = -1.0, j(1, 1) = 1.0;
    return Eval::ok;
  }
  Eval mass(double, ConstVector, MatrixView m) override {
    m(0, 0) = 1.0;
    return Eval::ok;
  }
};

struct Errors {
  double at_steps = 0.0;     // max over the step points
  double off_steps = 0.0;    // max over the step midpoints, by dense output
  double algebraic = 0.0;    // max over algebraic components at the step points
};

template <class P>
Errors fixed_step_errors(int steps, double tend) {
  dk_problem handle{};
  char err[256];
  REQUIRE(sdk::make_problem<P>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
  Stats stats{};
  {
    ProblemView view(handle, stats);
    const Eigen::Index n = view.size();
    SolveRequest req;
    req.rtol = req.atol = Eigen::VectorXd::Constant(n, 1e-6);
    MassMatrix mass;
    Eigen::VectorXd y = P::exact(0.0);
    REQUIRE(mass.setup(view, 0.0, y) == Eval::ok);
    IterationMatrix matrix;
    matrix.setup(view, req, mass);
    ErrorNorm norm = ErrorNorm::for_request(req, view);
    RosenbrockStepper stepper(tableaus::rodas5p, view, mass, matrix, norm);
    const double h = tend / steps;
    Errors e;
    Eigen::VectorXd mid(n);
    for (int k = 0; k < steps; ++k) {
      const double t = k * h;
      StepAttempt a = stepper.attempt(t, h, y);
      REQUIRE(a.kind == StepAttempt::Kind::ok);
      stepper.accept();
      stepper.interpolate(0.5, mid);
      y = stepper.y_new();
      const Eigen::VectorXd diff = y - P::exact(t + h);
      e.at_steps = std::max(e.at_steps, diff.cwiseAbs().maxCoeff());
      e.off_steps = std::max(e.off_steps, (mid - P::exact(t + 0.5 * h)).cwiseAbs().maxCoeff());
      for (Eigen::Index i = 0; i < n; ++i)
        if (view.is_algebraic(i)) e.algebraic = std::max(e.algebraic, std::abs(diff[i]));
    }
    handle.vtbl->destroy(handle.self);
    return e;
  }
}

// Least-squares slope of log(error) against log(h).
double observed_order(const std::vector<int>& steps, const std::vector<double>& errors) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double m = static_cast<double>(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double x = std::log(1.0 / steps[i]), yv = std::log(errors[i]);
    sx += x, sy += yv, sxx += x * x, sxy += x * yv;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

template <class P>
void check_orders(const char* what, double tend, double step_order, double dense_order) {
  // Fine enough to be in the asymptotic range (y' = -y^2 still shows order 4.7 between 8 and 16 steps),
  // coarse enough to stay far above round-off.
  const std::vector<int> steps{32, 64, 128, 256};
  std::vector<double> at, off;
  for (int s : steps) {
    Errors e = fixed_step_errors<P>(s, tend);
    at.push_back(e.at_steps);
    off.push_back(e.off_steps);
  }
  const double p = observed_order(steps, at), q = observed_order(steps, off);
  std::cout << what << ": measured order " << p << " at steps, " << q << " by dense output (errors " << at.front()
            << " .. " << at.back() << ")\n";
  CHECK(std::abs(p - step_order) <= 0.2);
  CHECK(q >= dense_order - 0.2);
}

}  // namespace

TEST_CASE("Rodas5P converges with order 5 on a smooth non-autonomous ODE", "[convergence][plugin:rodas5p]") {
  check_orders<SmoothOde>("rodas5p ODE", 2.0, tableaus::rodas5p.order, tableaus::rodas5p.dense_order);
}

TEST_CASE("Rodas5P converges with order 5 on an index-1 DAE, algebraic part included",
          "[convergence][dae][plugin:rodas5p]") {
  check_orders<SmoothDae>("rodas5p index-1 DAE", 2.0, tableaus::rodas5p.order, tableaus::rodas5p.dense_order);
  // The algebraic component converges at the same rate (Rodas5P satisfies the index-1 conditions).
  const std::vector<int> steps{32, 64, 128, 256};
  std::vector<double> alg;
  for (int s : steps) alg.push_back(fixed_step_errors<SmoothDae>(s, 2.0).algebraic);
  CHECK(std::abs(observed_order(steps, alg) - 5.0) <= 0.2);
}
