// The Rosenbrock family's discrete adjoint (plugins/rosenbrock/kit/adjoint.cpp): the
// gradient of what the forward steps compute, so it equals the family's own forward
// sensitivities (which differentiate the same steps) far below the tolerance, and the
// true gradient to the tolerance; data, terminal and running terms; checkpoints; what it
// refuses.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>

#include <daekit/sdk/dual.hpp>
#include <memory>

#include "adjoint_support.hpp"
#include "ball_closed_form.hpp"
#include "event_problems.hpp"

using namespace adjoint_test;

namespace {

// G = y_c(T)^2.
daekit::api::Functional square_at_end(std::size_t c) {
  daekit::api::Functional f;
  f.terminal = [c](const double* y, double* dy, double*) {
    dy[c] = 2 * y[c];
    return y[c] * y[c];
  };
  return f;
}

daekit::SolveOptions options(double rtol, double tend) {
  daekit::SolveOptions o;
  o.rtol = rtol;
  o.atol = rtol * 1e-4;
  o.tend = tend;
  o.output = DK_OUTPUT_END;
  return o;
}

// dG/dp of y_c(T)^2 from the solver's forward sensitivities, on the steps the adjoint's
// forward pass takes (no data times inside the span: nothing else to land on).
std::vector<double> own_forward_gradient(const daekit::ProblemHandle& problem, const std::string& solver,
                                         daekit::SolveOptions o, std::size_t c) {
  o.adjoint = nullptr;
  o.sensitivities = {"all"};
  const auto s = daekit::solve(problem, registry().solver(solver), o);
  REQUIRE(s.success());
  const std::size_t end = s.size() - 1;
  std::vector<double> g(s.sensitivity_count());
  for (std::size_t q = 0; q < g.size(); ++q) g[q] = 2 * s.point(end)[c] * s.sensitivity(end, c, q);
  return g;
}

}  // namespace

TEST_CASE("the Rosenbrock adjoint equals the family's forward sensitivities far below the tolerance",
          "[api][adjoint][rosenbrock]") {
  // Measured: 2e-15 to 8e-11 relative (the differences of the second-derivative terms),
  // against 3e-8 to 8e-6 between either and radau5 at rtol 1e-12.
  struct Case {
    const char* problem;
    std::size_t component;
    double tend;
    bool index2 = false;  // for the methods that take index 2 (rodas5p, rodas4)
  };
  for (const Case c : {Case{"rober", 1, 100}, Case{"rober_dae", 1, 100}, Case{"hires", 7, 321.8122},
                       Case{"pendulum_dae", 3, 3, true}})
    for (const std::string solver : {"rodas5p", "rodas4", "ros34pw2", "rosenbrock23"})
      for (const double rtol : {1e-5, 1e-8}) {
        if (c.index2 && (solver == "ros34pw2" || solver == "rosenbrock23")) continue;
        INFO(c.problem << " by " << solver << " at rtol " << rtol);
        const auto problem = registry().problem(c.problem);
        const auto f = square_at_end(c.component);
        daekit::SolveOptions o = options(rtol, c.tend);
        o.adjoint = &f;
        const auto a = daekit::solve(problem, registry().solver(solver), o);
        INFO(a.message);
        REQUIRE(a.success());
        CHECK(relative_difference(a.gradient, own_forward_gradient(problem, solver, o, c.component)) < 1e-9);
      }
}

TEST_CASE("the Rosenbrock adjoint of a sum of squares agrees with forward sensitivities on ODEs and index-1 DAEs",
          "[api][adjoint][rosenbrock]") {
  // Data inside the span: the forward pass lands on every data time. Measured at rtol 1e-6,
  // 1e-8, 1e-10: rober (rodas5p) 5.7e-4, 1.2e-5, 7.0e-8; chemakzo (rodas4p) 1.8e-5, 1.0e-7,
  // 4.7e-9; rober_dae (rodas4) 7.8e-5, 4.6e-7, then 2.4e-7, as every Rosenbrock method
  // (1.3e-7 to 2.4e-7) where the reference's own error is not below them: checked to 1e-8.
  check_sum_of_squares("rober", {1, 10, 100, 1000, 1e4, 1e5}, NAN, "rodas5p");
  check_sum_of_squares("chemakzo", {1, 10, 60, 180}, 180, "rodas4p");
  check_sum_of_squares("rober_dae", {1, 10, 100, 1000, 1e4}, 1e5, "rodas4", {1e-6, 1e-8});
  check_sum_of_squares("hires", {10, 100, 200, 321.8122}, NAN, "ros34pw2");
}

TEST_CASE("the Rosenbrock adjoint of terminal and running terms of an index-1 DAE against central differences of G",
          "[api][adjoint][rosenbrock]") {
  // Chemical Akzo Nobel, G = y6(T)^2 + integral of y1 (as ida's test): the running term is
  // integrated by the same stages as one more component.
  const auto problem = registry().problem("chemakzo");
  daekit::api::Functional f = square_at_end(5);
  f.running = [](double, const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  daekit::SolveOptions o = options(1e-10, 60);
  o.adjoint = &f;
  const auto s = daekit::solve(problem, registry().solver("rodas5p"), o);
  INFO(s.message);
  REQUIRE(s.success());
  o.rtol = 1e-12;
  o.atol = 1e-16;
  check_against_differences(problem, s, [&] {
    const auto r = daekit::solve(problem, registry().solver("rodas5p"), o);
    REQUIRE(r.success());
    return *r.functional_value;
  });
}

TEST_CASE("the Rosenbrock adjoint with checkpoints every k steps gives the gradient of keeping every step",
          "[api][adjoint][rosenbrock]") {
  const auto problem = registry().problem("rober");
  const DataTerms d = data_for(problem, {1, 10, 100, 1000});
  const auto f = sum_of_squares(d);
  daekit::SolveOptions o = options(1e-7, 1000);
  o.adjoint = &f;
  const auto every = daekit::solve(problem, registry().solver("rodas5p"), o);
  REQUIRE(every.success());
  for (const char* k : {"2", "7", "1000000"}) {
    INFO("checkpoint_steps=" << k);
    o.solver_options = {{"checkpoint_steps", k}};
    const auto s = daekit::solve(problem, registry().solver("rodas5p"), o);
    REQUIRE(s.success());
    CHECK(s.gradient == every.gradient);  // the replayed steps are the forward steps, bit for bit
    CHECK(*s.functional_value == *every.functional_value);
  }
}

TEST_CASE("the Rosenbrock adjoint refuses what it does not differentiate, naming why", "[api][adjoint][rosenbrock]") {
  const auto f = square_at_end(0);
  daekit::SolveOptions o = options(1e-6, 1);
  o.adjoint = &f;
  o.solver_options = {{"max_jacobian_age", "3"}};
  const auto old_jacobian = daekit::solve(registry().problem("rober"), registry().solver("ros34pw2"), o);
  CHECK(old_jacobian.status == daekit::Status::unsupported_problem);
  CHECK_THAT(old_jacobian.message, Catch::Contains("max_jacobian_age=1"));
  o.solver_options.clear();
  // Root events need the method's own continuous extension, which ros34pw2 lacks.
  const auto ball = daekit::ProblemHandle::from(std::make_unique<event_problems::Ball>(true));
  const auto no_extension = daekit::solve(ball, registry().solver("ros34pw2"), o);
  CHECK(no_extension.status == daekit::Status::unsupported_problem);
  CHECK_THAT(no_extension.message, Catch::Contains("continuous extension"));
}

namespace {

using D4 = daekit::Dual<4>;
D4 seeded(double value, int k) {
  D4 d(value);
  d.d[static_cast<std::size_t>(k)] = 1.0;
  return d;
}

// |got - want| against the largest |want|.
double worst_relative(const std::vector<double>& got, const std::vector<double>& want) {
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    worst = std::max(worst, std::abs(got[k] - want[k]));
    scale = std::max(scale, std::abs(want[k]));
  }
  return worst / scale;
}

}  // namespace

TEST_CASE("the Rosenbrock adjoint through root events: a bouncing ball's dG/de, dG/dg, dG/dy0 against the closed form",
          "[api][adjoint][rosenbrock][events]") {
  // G = sum over t_k of (x(t_k) - d_k)^2 / 2 + v(T)^2, through three bounces (t = 1.59,
  // 3.89, 5.73): the event times move with e, g and y0, the reset v -> -e v depends on e.
  // Measured: 6e-10 to 9e-10 at rtol 1e-7; 3e-9 (rodas4) and 1.7e-8 (rodas5p) at 1e-10, the
  // floor of the four-corner differences this Jacobian-less problem's second derivatives take.
  const std::vector<double> times{1.0, 2.5, 4.0, 5.0}, data{5.0, 6.0, 2.0, 1.0};
  daekit::api::Functional f;
  f.data_t = times;
  f.data_term = [&](std::size_t k, const double* y, double* dy, double*) {
    dy[0] = 1.0;
    return y[0] - data[k];
  };
  f.terminal = [](const double* y, double* dy, double*) {
    dy[1] = 2 * y[1];
    return y[1] * y[1];
  };
  // The closed form with e, g, x0, v0 as the four dual directions.
  D4 exact_g(0.0);
  for (std::size_t k = 0; k < times.size(); ++k) {
    const auto y = daekit::test::ball_at(seeded(10.0, 2), seeded(1.5, 3), seeded(0.8, 0), seeded(9.81, 1), times[k]);
    exact_g += 0.5 * (y[0] - data[k]) * (y[0] - data[k]);
  }
  const auto end = daekit::test::ball_at(seeded(10.0, 2), seeded(1.5, 3), seeded(0.8, 0), seeded(9.81, 1), 6.0);
  exact_g += end[1] * end[1];
  for (const std::string solver : {"rodas5p", "rodas4"})
    for (const double rtol : {1e-7, 1e-10}) {
      INFO(solver << " at rtol " << rtol);
      const auto problem = daekit::ProblemHandle::from(std::make_unique<event_problems::Ball>(true));
      daekit::SolveOptions o = options(rtol, 6.0);
      o.adjoint = &f;
      const auto s = daekit::solve(problem, registry().solver(solver), o);
      INFO(s.message);
      REQUIRE(s.success());
      CHECK(s.stats.nevents == 3);
      CHECK(std::abs(*s.functional_value - exact_g.v) < 1e3 * rtol * exact_g.v);
      const std::vector<double> gradient{s.gradient[0], s.gradient[1], s.gradient_y0[0], s.gradient_y0[1]};
      const std::vector<double> exact(exact_g.d.begin(), exact_g.d.end());
      INFO("dG/de " << gradient[0] << " (" << exact[0] << "), dG/dg " << gradient[1] << " (" << exact[1] << ")");
      CHECK(worst_relative(gradient, exact) < 1e3 * rtol);
    }
}

TEST_CASE("the Rosenbrock adjoint through a time event and through a DAE's re-initialised event, against closed forms",
          "[api][adjoint][rosenbrock][events]") {
  using D2 = daekit::Dual<2>;
  SECTION("a dose D at t = 1 into y' = -k y: G = y(2.5)^2") {
    D2 k(0.9), dose(0.6);
    k.d[0] = dose.d[1] = 1.0;
    const D2 y_end = (exp(-k) + dose) * exp(-k * 1.5), g = y_end * y_end;
    const auto f = square_at_end(0);
    for (const std::string solver : {"rodas5p", "ros34pw2", "rosenbrock23"}) {
      INFO(solver);
      const auto problem = daekit::ProblemHandle::from(std::make_unique<event_problems::Dose>());
      daekit::SolveOptions o = options(1e-9, 2.5);
      o.adjoint = &f;
      const auto s = daekit::solve(problem, registry().solver(solver), o);
      INFO(s.message);
      REQUIRE(s.success());
      // Measured at rtol 1e-9: 5e-10 (ros34pw2), 1.6e-9 (rodas5p), 1.1e-6 (rosenbrock23, of order 2).
      const double bound = solver == "rosenbrock23" ? 1e-5 : 1e-6;
      CHECK(worst_relative(s.gradient, {g.d[0], g.d[1]}) < bound);
      // dG/dy0 = 2 y(T) e^{-k T}.
      CHECK(std::abs(s.gradient_y0[0] - 2 * y_end.v * std::exp(-0.9 * 2.5)) < bound * std::abs(s.gradient_y0[0]));
    }
  }
  SECTION("an index-1 DAE dosed when its algebraic component falls to c: G = y1(T)^2") {
    D4 k(0.7), a(2.0), c(1.0), dose(0.4);
    k.d[0] = a.d[1] = c.d[2] = dose.d[3] = 1.0;
    const D4 star = log(a / c) / k, y1 = (c / a + dose) * exp(-k * (1.5 - star)), g = y1 * y1;
    const auto f = square_at_end(0);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<event_problems::DaeDose>());
    daekit::SolveOptions o = options(1e-10, 1.5);
    o.adjoint = &f;
    const auto s = daekit::solve(problem, registry().solver("rodas5p"), o);
    INFO(s.message);
    REQUIRE(s.success());
    REQUIRE(s.stats.nevents == 1);
    CHECK(worst_relative(s.gradient, {g.d[0], g.d[1], g.d[2], g.d[3]}) < 1e-6);  // measured: 5.6e-9
  }
}

TEST_CASE("the Rosenbrock adjoint refuses a problem whose equations switched at an event, which it cannot replay",
          "[api][adjoint][rosenbrock][events]") {
  const auto f = square_at_end(0);
  const auto problem = daekit::ProblemHandle::from(std::make_unique<event_problems::Switch>());
  daekit::SolveOptions o = options(1e-8, 2.0);
  o.adjoint = &f;
  const auto s = daekit::solve(problem, registry().solver("rodas5p"), o);
  CHECK(s.status == daekit::Status::unsupported_problem);
  CHECK_THAT(s.message, Catch::Contains("cannot replay"));
}
