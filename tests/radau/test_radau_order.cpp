// Measured convergence orders of the Radau IIA steps at fixed step sizes on smooth
// problems with known solutions: radau5 (order 5, and its continuous output), and
// radauiia's 3, 5 and 7 stages (orders 5, 9, 13).
#include <catch2/catch.hpp>
#include <daekit/kits/radau/radau5_stepper.hpp>
#include <daekit/kits/radau/radau_iia_stepper.hpp>
#include <iostream>
#include <memory>

#include "fixed_steps.hpp"
#include "smooth_problems.hpp"

using namespace daekit;
using daekit::test::Errors;
using daekit::test::fixed_step_errors_with;
using daekit::test::observed_order;
using daekit::test::SmoothDae;
using daekit::test::SmoothOde;

TEST_CASE("Radau5 converges with order 5 on a smooth ODE and on an index-1 DAE", "[convergence][plugin:radau5]") {
  // Newton is run to a tight tolerance (tol 1e-11: RADAU5's fnewt ~ 7e-5 of a scale ~ 5e-9), with
  // enough iterations allowed that the rate test never cuts a fixed step short.
  auto make = [](ProblemView& view, const SolveRequest& req, const MassMatrix& mass, IterationMatrix& matrix,
                 const ErrorNorm&) {
    Radau5Settings settings;
    settings.max_newton = 30;
    return std::make_unique<Radau5Stepper>(view, req, mass, matrix, settings);
  };
  const std::vector<int> steps{8, 16, 32, 64};
  std::vector<double> ode, ode_dense, dae;
  for (int s : steps) {
    Errors e = fixed_step_errors_with<SmoothOde>(make, s, 2.0, 1e-11);
    ode.push_back(e.at_steps);
    ode_dense.push_back(e.off_steps);
    dae.push_back(fixed_step_errors_with<SmoothDae>(make, s, 2.0, 1e-11).at_steps);
  }
  const double p = observed_order(steps, ode), q = observed_order(steps, ode_dense), r = observed_order(steps, dae);
  std::cout << "radau5: order " << p << " (ODE), " << r << " (index-1 DAE), " << q << " by dense output\n";
  CHECK(std::abs(p - 5.0) <= 0.3);
  CHECK(std::abs(r - 5.0) <= 0.3);
  // The collocation polynomial (degree 3, stage order 3) is RADAU5's third-order continuous
  // output; measured 3.78 here, between its order 3 and the O(h^4) local error of degree-3 interpolation.
  CHECK(q >= 3.0 - 0.2);
}

TEST_CASE("Radau IIA with 3, 5 and 7 stages converges with orders 5, 9 and 13", "[convergence][plugin:radauiia]") {
  struct Case {
    int stages;
    std::vector<int> steps;      // on [0, 2] for the oscillator (h w = 20 / steps)
    std::vector<int> dae_steps;  // on [0, 20] for the index-1 DAE; empty: at round-off already
  };
  // Step counts in each order's asymptotic range and clear of round-off (the 13th-order
  // method's errors run from 1e-7 to 1e-10 for h w = 2.9 ... 1.7, and reach round-off
  // by h w = 0.7). Measured orders: 4.99, 9.00, 12.86 (ODE); 4.99, 9.24 (DAE).
  for (const Case& c : {Case{3, {40, 80, 160, 320}, {40, 80, 160}}, Case{5, {20, 30, 40, 60}, {14, 20, 28, 40}},
                        Case{7, {7, 8, 10, 12}, {}}}) {
    auto make = [&](ProblemView& view, const SolveRequest& req, const MassMatrix& mass, IterationMatrix& matrix,
                    const ErrorNorm&) {
      RadauIIASettings settings;
      settings.min_stages = settings.max_stages = settings.start_stages = c.stages;
      settings.max_newton = 40;
      return std::make_unique<RadauIIAStepper>(view, req, mass, matrix, settings);
    };
    // Newton to round-off: the tolerance only sets its stopping test (RADAU's transformed
    // rtol' = 0.1 tol^((s+1)/(2s)) is loose for many stages).
    std::vector<double> ode, dae;
    for (int s : c.steps) ode.push_back(fixed_step_errors_with<daekit::test::Oscillator>(make, s, 2.0, 1e-20).at_steps);
    for (int s : c.dae_steps) dae.push_back(fixed_step_errors_with<SmoothDae>(make, s, 20.0, 1e-20).at_steps);
    const double p = observed_order(c.steps, ode);
    const int expected = 2 * c.stages - 1;
    std::cout << "radau IIA " << c.stages << " stages: order " << p << " (ODE, errors " << ode.front() << " .. "
              << ode.back() << ")";
    INFO(c.stages << " stages");
    CHECK(std::abs(p - expected) <= 0.5);
    if (!dae.empty()) {
      const double r = observed_order(c.dae_steps, dae);
      std::cout << ", " << r << " (index-1 DAE)";
      CHECK(std::abs(r - expected) <= 0.5);
    }
    std::cout << "\n";
  }
}
