// A Rosenbrock method's error estimate must track its true local error, also on
// non-autonomous stiff problems: the order tests only see the solution, and a wrong
// time-derivative weight of a stage that only the estimate uses (rosenbrock23's third)
// leaves the solution's order intact while the estimate goes wrong by orders of magnitude.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/kits/rosenbrock/stepper.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/kits/rosenbrock/tableaus/all_rosenbrock.hpp>
#include <iostream>

#include "smooth_problems.hpp"

using namespace daekit;

namespace {

struct LocalError {
  double estimate = 0.0, true_error = 0.0;
};

// One step of size h from the exact solution at t, with the raw (unweighted) estimate.
template <class P>
LocalError one_step(const tableaus::RosenbrockTableau& tab, double t, double h) {
  dk_problem handle{};
  char err[256];
  REQUIRE(sdk::make_problem<P>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
  Stats stats{};
  LocalError out;
  {
    ProblemView view(handle, stats);
    SolveRequest req;
    req.rtol = PerComponent(1, 0.0);
    req.atol = PerComponent(1, 1.0);  // the weighted norm is then |estimate|
    MassMatrix mass;
    Eigen::VectorXd y = P::exact(t);
    REQUIRE(mass.setup(view, t, y) == Eval::ok);
    IterationMatrix matrix;
    matrix.setup(view, req, mass);
    const ErrorNorm norm = ErrorNorm::for_request(req, view);
    RosenbrockStepper stepper(tab, view, mass, matrix, norm);
    const StepAttempt a = stepper.attempt(t, h, y);
    REQUIRE(a.kind == StepAttempt::Kind::ok);
    out.estimate = a.error;
    out.true_error = std::abs(stepper.y_new()[0] - P::exact(t + h)[0]);
  }
  handle.vtbl->destroy(handle.self);
  return out;
}

double slope(double e1, double e2, double h1, double h2) { return std::log(e1 / e2) / std::log(h1 / h2); }

template <class P>
void check_tracking(const char* label) {
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  INFO(tab->name << " on " << label);
  const std::vector<double> hs{0.1, 0.05, 0.025, 0.0125};
  std::vector<LocalError> e;
  for (double h : hs) e.push_back(one_step<P>(*tab, 0.3, h));
  const double true_rate = slope(e.front().true_error, e.back().true_error, hs.front(), hs.back());
  const double est_rate = slope(e.front().estimate, e.back().estimate, hs.front(), hs.back());
  std::cout << tab->name << " " << label << ": local error ~ h^" << true_rate << ", estimate ~ h^" << est_rate
            << ", estimate/error " << e.front().estimate / e.front().true_error << " ... "
            << e.back().estimate / e.back().true_error << "\n";
  for (std::size_t k = 0; k < hs.size(); ++k) {
    INFO("h = " << hs[k] << ": estimate " << e[k].estimate << ", true local error " << e[k].true_error);
    // Never blind: an estimate far below the error accepts steps it should not.
    CHECK(e[k].estimate >= 0.2 * e[k].true_error);
  }
  // Falling with the order of the embedded solution the estimate compares with, or with
  // the error itself where stiffness reduces that (the rate is then the error's).
  CHECK(est_rate >= std::min<double>(tab->embedded_order + 1, true_rate) - 0.5);
}

}  // namespace

TEST_CASE("every Rosenbrock estimate tracks its local error on Prothero-Robinson, L = -1e6 (stiff)",
          "[convergence][estimate]") {
  check_tracking<test::ProtheroRobinson<6>>("L = -1e6");
}

TEST_CASE("every Rosenbrock estimate tracks its local error on Prothero-Robinson, L = -1 (not stiff)",
          "[convergence][estimate]") {
  check_tracking<test::ProtheroRobinson<0>>("L = -1");
}
