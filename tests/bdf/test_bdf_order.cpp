// The BDF and NDF formulas converge with their order k = 1..5 at constant steps
// (after the stepper's own short start-up), on a smooth ODE and on an index-1 DAE,
// through the whole solve (initialisation, history, driver); and the variable-order
// code reaches accuracy proportional to the tolerance.
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <daekit/kits/bdf/stepper.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <iostream>

#include "smooth_problems.hpp"

using namespace daekit;
using daekit::test::SmoothDae;
using daekit::test::SmoothOde;

namespace {

struct LastPoint {
  Eigen::VectorXd y;
  double t = 0.0;
  static int32_t emit(void* env, double t, const double* y, size_t n) {
    auto* self = static_cast<LastPoint*>(env);
    self->t = t;
    self->y = Eigen::Map<const Eigen::VectorXd>(y, static_cast<Eigen::Index>(n));
    return 0;
  }
};

// Error at t = 2 against the exact solution, and the outcome.
template <class P>
double bdf_error(const BdfSettings& settings, double tol, SolveOutcome* outcome = nullptr) {
  dk_problem handle{};
  char err[256];
  REQUIRE(sdk::make_problem<P>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
  Stats stats{};
  double error = 0.0;
  {
    ProblemView view(handle, stats);
    SolveRequest req;
    req.t0 = 0.0;
    req.tend = 2.0;
    req.y0 = P::exact(0.0);
    req.rtol = req.atol = PerComponent(view.size(), tol);
    req.hmax = std::numeric_limits<double>::infinity();
    req.max_steps = 10000000;
    LastPoint last;
    dk_output_sink sink_c{&last, &LastPoint::emit};
    OutputSink sink(&sink_c);
    const SolveOutcome out = solve_bdf(view, req, sink, settings);
    if (outcome) *outcome = out;
    INFO("fixed step " << settings.fixed_step << ", order " << settings.max_order << ": " << out.message);
    REQUIRE(out.status == Status::success);
    REQUIRE(last.t == 2.0);
    error = (last.y - P::exact(2.0)).cwiseAbs().maxCoeff();
  }
  handle.vtbl->destroy(handle.self);
  return error;
}

double slope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double m = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double a = std::log(x[i]), b = std::log(y[i]);
    sx += a, sy += b, sxx += a * a, sxy += a * b;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

// Fixed-step order of the order-k formula: errors at h = 2/N for three N in the
// asymptotic range and clear of round-off.
template <class P>
double fixed_step_order(int k, bool ndf) {
  BdfSettings s;
  s.newton_tol = 0.33;  // DASSL's: the orders were measured with it
  s.max_order = k;
  s.ndf = ndf;
  s.max_newton = 50;  // Newton to the tight tolerance: no step may fail
  // Halve the step four times; fit the finest three points still clear of round-off
  // (the orders 4 and 5 on y1 = 1/(1+t) are asymptotic only from 80 steps on).
  const std::vector<int> counts = k <= 2 ? std::vector<int>{200, 400, 800, 1600} : std::vector<int>{40, 80, 160, 320};
  std::vector<double> hs, errors;
  for (int n : counts) {
    s.fixed_step = 2.0 / n;
    const double e = bdf_error<P>(s, 1e-13);
    if (e < 5e-12) break;
    hs.push_back(s.fixed_step);
    errors.push_back(e);
  }
  REQUIRE(errors.size() >= 3);
  hs.erase(hs.begin(), hs.end() - 3);
  errors.erase(errors.begin(), errors.end() - 3);
  INFO("errors " << errors[0] << " " << errors[1] << " " << errors[2]);
  return slope(hs, errors);
}

}  // namespace

TEST_CASE("BDF and NDF of order k converge with order k at constant steps", "[convergence][plugin:bdf]") {
  for (bool ndf : {false, true}) {
    for (int k = 1; k <= 5; ++k) {
      const double ode = fixed_step_order<SmoothOde>(k, ndf);
      const double dae = fixed_step_order<SmoothDae>(k, ndf);
      std::cout << (ndf ? "ndf" : "bdf") << k << ": order " << ode << " (ODE), " << dae << " (index-1 DAE)\n";
      INFO((ndf ? "ndf" : "bdf") << k);
      CHECK(std::abs(ode - k) <= 0.3);
      CHECK(std::abs(dae - k) <= 0.3);
    }
  }
}

TEST_CASE("variable-order BDF reaches accuracy proportional to the tolerance", "[convergence][plugin:bdf]") {
  for (bool ndf : {false, true}) {
    BdfSettings s;
    s.newton_tol = 0.33;  // DASSL's: the accuracies were measured with it
    s.ndf = ndf;
    std::vector<double> tols{1e-4, 1e-6, 1e-8, 1e-10}, errors;
    for (double tol : tols) {
      SolveOutcome out;
      errors.push_back(bdf_error<SmoothOde>(s, tol, &out));
      std::cout << (ndf ? "ndf" : "bdf") << " tol " << tol << ": error " << errors.back() << "\n";
      CHECK(errors.back() <= 20.0 * tol);
    }
    // Tolerance proportionality: the error falls by about as much as the tolerance
    // (measured: error ~ tol^0.83 with bdf, tol^0.74 with ndf).
    const double p = slope(tols, errors);
    std::cout << (ndf ? "ndf" : "bdf") << ": error ~ tol^" << p << "\n";
    CHECK(p >= 0.7);
    CHECK(p <= 1.3);
  }
}

namespace {

// A BDF stepper on problem P from its exact y(0), as solve_bdf sets one up.
template <class P>
struct SteppingRig {
  dk_problem handle{};
  Stats stats{};
  std::optional<ProblemView> view;
  SolveRequest req;
  ImplicitSystem system;
  std::optional<ErrorNorm> norm;
  std::optional<BdfStepper> stepper;

  explicit SteppingRig(double tol) {
    char err[256];
    REQUIRE(sdk::make_problem<P>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
    view.emplace(handle, stats);
    req.t0 = 0.0;
    req.tend = 2.0;
    req.y0 = P::exact(0.0);
    req.rtol = req.atol = PerComponent(view->size(), tol);
    req.hmax = std::numeric_limits<double>::infinity();
    REQUIRE(system.setup(*view, req, /*allow_sparse=*/false) == Eval::ok);
    norm.emplace(ErrorNorm::for_request(req, *view));
    BdfSettings settings;
    settings.newton_tol = 0.33;
    stepper.emplace(system, req, *norm, settings);
    Eigen::VectorXd f(view->size());
    REQUIRE(view->rhs(0.0, req.y0, f) == Eval::ok);
    stepper->start(0.0, req.y0, f);
  }
  ~SteppingRig() {
    stepper.reset();
    view.reset();
    handle.vtbl->destroy(handle.self);
  }
  // Accepted steps as the stepper chooses them (its order rises, its steps change).
  // Returns t; h is the step it would take next.
  double warm_up(double* h, int accepted) {
    double t = 0.0;
    while (accepted > 0) {
      const StepAttempt a = stepper->attempt(t, *h, req.y0);
      REQUIRE(a.kind == StepAttempt::Kind::ok);
      if (!(a.error <= 1.0)) {
        *h *= stepper->rejected_factor();
        continue;
      }
      stepper->accept();
      t += *h;
      *h *= stepper->accepted_factor();
      --accepted;
    }
    return t;
  }
};

}  // namespace

TEST_CASE("bdf's history is itself again after an attempt that was not accepted", "[plugin:bdf]") {
  // The stepper scales its differences by beta_j in place for an attempt (as IDA does)
  // and must undo that before the next one, whether the error test rejected the attempt
  // or the driver declined a passed one (a sign constraint violated at the step's end).
  SteppingRig<SmoothOde> reference(1e-8), rejected(1e-8), declined(1e-8);
  double t = 0.0, h = 1e-4;
  for (auto* rig : {&reference, &rejected, &declined}) {
    h = 1e-4;
    t = rig->warm_up(&h, 40);
  }
  const int order = reference.stepper->order();
  std::cout << "history test: order " << order << " at t = " << t << ", h = " << h << "\n";
  REQUIRE(order >= 3);
  // Rejected by the error test: a step far too long for the tolerance.
  const StepAttempt too_long = rejected.stepper->attempt(t, 4.0 * h, rejected.req.y0);
  REQUIRE(too_long.kind == StepAttempt::Kind::ok);
  CHECK(!(too_long.error <= 1.0));
  // Passed the error test, but never accepted.
  const StepAttempt passed = declined.stepper->attempt(t, 0.7 * h, declined.req.y0);
  REQUIRE(passed.kind == StepAttempt::Kind::ok);
  REQUIRE(passed.error <= 1.0);
  const double h_next = 0.5 * h;  // another step again: beta_j != 1
  // The same step from each: the same answer to rounding (the undone scaling may leave
  // the last bit of a difference off), and its interpolant too.
  std::cout << "after the rejection: order " << rejected.stepper->order() << " (was " << order << ")\n";
  REQUIRE(rejected.stepper->order() == order);  // so the two attempts are the same step
  for (auto* rig : {&reference, &rejected, &declined}) {
    const StepAttempt a = rig->stepper->attempt(t, h_next, rig->req.y0);
    REQUIRE(a.kind == StepAttempt::Kind::ok);
    rig->stepper->accept();
  }
  const Eigen::VectorXd expected = reference.stepper->y_new();
  Eigen::VectorXd mid_expected, mid;
  reference.stepper->interpolate(0.5, mid_expected);
  for (auto* rig : {&rejected, &declined}) {
    const double scale = expected.cwiseAbs().maxCoeff();
    CHECK((rig->stepper->y_new() - expected).cwiseAbs().maxCoeff() <= 1e-13 * scale);
    rig->stepper->interpolate(0.5, mid);
    CHECK((mid - mid_expected).cwiseAbs().maxCoeff() <= 1e-13 * scale);
  }
}
