// Fixed steps of any one-step method's stepper on a problem with a known solution, and
// the order the errors show: the families' order tests (tests/<family>/) share these.
#pragma once

#include <catch2/catch.hpp>
#include <daekit/numerics/driver.hpp>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

namespace daekit::test {

struct Errors {
  double at_steps = 0.0;     // max over the step points
  double off_steps = 0.0;    // max over the step midpoints, by dense output
  double algebraic = 0.0;    // max over algebraic components at the step points
};

// Fixed steps of any stepper made by make(view, request, mass, matrix, norm).
template <class P, class Make>
inline Errors fixed_step_errors_with(Make&& make, int steps, double tend, double tol = 1e-6) {
  dk_problem handle{};
  char err[256];
  REQUIRE(sdk::make_problem<P>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
  Stats stats{};
  {
    ProblemView view(handle, stats);
    const Eigen::Index n = view.size();
    SolveRequest req;
    req.rtol = req.atol = PerComponent(n, tol);
    MassMatrix mass;
    Eigen::VectorXd y = P::exact(0.0);
    REQUIRE(mass.setup(view, 0.0, y) == Eval::ok);
    IterationMatrix matrix;
    matrix.setup(view, req, mass);
    ErrorNorm norm = ErrorNorm::for_request(req, view);
    auto stepper_ptr = make(view, req, mass, matrix, norm);
    auto& stepper = *stepper_ptr;
    const double h = tend / steps;
    Errors e;
    Eigen::VectorXd mid(n);
    for (int k = 0; k < steps; ++k) {
      const double t = k * h;
      StepAttempt a = stepper.attempt(t, h, y);
      INFO("step " << k << " at t=" << t << ", h=" << h << ": " << a.message);
      REQUIRE(a.kind == StepAttempt::Kind::ok);
      (void)a;
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
inline double observed_order(const std::vector<int>& steps, const std::vector<double>& errors) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double m = static_cast<double>(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double x = std::log(1.0 / steps[i]), yv = std::log(errors[i]);
    sx += x, sy += yv, sxx += x * x, sxy += x * yv;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}


}  // namespace daekit::test
