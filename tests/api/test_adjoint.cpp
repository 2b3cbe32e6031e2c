// Adjoint gradients (ABI 1.3 part C) through daekit::solve: dG/dp of data terms, a
// terminal and a running term, against forward sensitivities and central differences of
// G itself, on Robertson, HIRES and POLLU (25 rate constants); requests a solver or
// problem cannot meet are refused before the solve.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>

#include "adjoint_support.hpp"

using namespace adjoint_test;

TEST_CASE("cvode's adjoint gradient of a sum of squares agrees with forward sensitivities", "[api][adjoint]") {
  // Measured: 1e-3 at 1e-6 to 5e-7 at 1e-10 on Robertson and HIRES, as large as the
  // forward sensitivities' own error at the same tolerance (cvode's: 1e-3 to 2.5e-7).
  check_sum_of_squares("rober", {1, 10, 100, 1000, 1e4, 1e5}, NAN, "cvode");
  check_sum_of_squares("hires", {10, 100, 200, 321.8122}, NAN, "cvode");
  check_sum_of_squares("pollu", {10, 30, 60}, NAN, "cvode");
}

TEST_CASE("cvode's adjoint gradient of terminal and running terms against central differences of G",
          "[api][adjoint]") {
  const auto problem = registry().problem("hires");
  // G = y8(T)^2 + integral of y1 over [0, T].
  daekit::api::Functional f;
  f.terminal = [](const double* y, double* dy, double*) {
    dy[7] = 2 * y[7];
    return y[7] * y[7];
  };
  f.running = [](double, const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  const auto s = adjoint_solve(problem, f, 1e-11);
  INFO(s.message);
  REQUIRE(s.success());
  const auto& instance = problem.instance();
  const std::vector<double> nominal = instance.parameters();
  for (std::size_t q = 0; q < nominal.size(); ++q) {
    INFO(instance.parameter_name(q));
    const double h = 1e-4 * std::abs(nominal[q]);
    std::vector<double> p = nominal;
    p[q] = nominal[q] + h;
    instance.set_parameters(p);
    const double plus = *adjoint_solve(problem, f, 1e-12).functional_value;
    p[q] = nominal[q] - h;
    instance.set_parameters(p);
    const double minus = *adjoint_solve(problem, f, 1e-12).functional_value;
    instance.set_parameters(nominal);
    const double difference = (plus - minus) / (2 * h);
    CHECK(std::abs(s.gradient[q] - difference) <= 1e-6 * std::abs(difference) + 1e-9 * *s.functional_value / std::abs(nominal[q]));
  }
}

TEST_CASE("an adjoint request a solver or problem cannot meet is refused before the solve", "[api][adjoint]") {
  daekit::api::Functional f;
  f.terminal = [](const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  daekit::SolveOptions o;
  o.adjoint = &f;
  CHECK_THROWS_AS(daekit::solve(registry().problem("rober"), registry().solver("radau5"), o), daekit::UnsupportedProblem);
  CHECK_THROWS_WITH(daekit::solve(registry().problem("rober"), registry().solver("radau5"), o),
                    Catch::Contains("does not compute adjoint gradients"));
  CHECK_THROWS_WITH(daekit::solve(registry().problem("fekete"), registry().solver("cvode"), o),
                    Catch::Contains("declares none") || Catch::Contains("DAE"));
  o.sensitivities = {"all"};
  CHECK_THROWS_WITH(daekit::solve(registry().problem("rober"), registry().solver("cvode"), o),
                    Catch::Contains("not both"));
  o.sensitivities.clear();
  daekit::api::Functional unsorted;
  unsorted.data_t = {2.0, 1.0};
  unsorted.data_term = [](std::size_t, const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  o.adjoint = &unsorted;
  CHECK_THROWS_WITH(daekit::solve(registry().problem("rober"), registry().solver("cvode"), o),
                    Catch::Contains("direction of integration"));
  // A problem with events: refused by cvode's adjoint, with a status that says so.
  const auto ball = registry().problem("bouncing_ball");
  o.adjoint = &f;
  o.output = DK_OUTPUT_END;
  if (ball.instance().parameter_count() > 0) {
    const auto s = daekit::solve(ball, registry().solver("cvode"), o);
    CHECK(s.status == daekit::Status::unsupported_problem);
    CHECK_THAT(s.message, Catch::Contains("does not cross events"));
  }
  // Adjoints with a Krylov linear solver: not there yet, refused with the reason.
  for (const char* solver : {"cvode", "ida", "rodas5p"}) {
    o.solver_options = {{"linear_solver", "krylov"}};
    const auto k = daekit::solve(registry().problem("rober"), registry().solver(solver), o);
    CHECK(k.status == daekit::Status::unsupported_problem);
    CHECK_THAT(k.message, Catch::Contains("linear_solver=krylov with adjoints"));
  }
  o.solver_options.clear();
  // A term that throws fails the solve with its message.
  daekit::api::Functional throwing;
  throwing.terminal = [](const double*, double*, double*) -> double { throw std::runtime_error("no phi here"); };
  o.adjoint = &throwing;
  const auto s = daekit::solve(registry().problem("rober"), registry().solver("cvode"), o);
  CHECK_FALSE(s.success());
  CHECK_THAT(s.message, Catch::Contains("no phi here"));
}

TEST_CASE("per-cell parameters of the brusselator: its nominal solution unchanged, the adjoint gradients (cvode, ida, rodas5p) "
          "from the pattern's df/dp",
          "[api][adjoint]") {
  const auto plain = registry().problem("brusselator", {{"N", "4"}});
  const auto cells = registry().problem("brusselator", {{"N", "4"}, {"per_cell", "true"}});
  REQUIRE(cells.instance().parameter_count() == 16);
  daekit::SolveOptions o;
  o.rtol = 1e-8;
  o.output = DK_OUTPUT_END;
  o.tend = 2.0;
  const auto a = daekit::solve(plain, registry().solver("cvode"), o);
  const auto b = daekit::solve(cells, registry().solver("cvode"), o);
  REQUIRE(a.success());
  REQUIRE(b.success());
  CHECK(a.y == b.y);  // the same equations at the nominal values, bit for bit
  const DataTerms d = data_for(cells, {0.5, 1.0, 2.0});
  const auto f = sum_of_squares(d);
  const auto reference = forward_gradient(cells, d, 1e-11);
  // Every backward pass in the sparse pattern: cvode's and ida's J^T with KLU, rodas5p's
  // W^T with the core's sparse LU.
  for (const std::string solver : {"cvode", "ida", "rodas5p"}) {
    INFO(solver);
    const auto s = adjoint_solve(cells, f, 1e-9, solver);
    INFO(s.message);
    REQUIRE(s.success());
    CHECK(relative_difference(s.gradient, reference) < 2e4 * 1e-9);
  }
}

TEST_CASE("ida's adjoint gradient of a sum of squares agrees with forward sensitivities on an ODE and index-1 DAEs",
          "[api][adjoint][ida]") {
  // Every component measured, the algebraic ones too (rober_dae's y3, chemakzo's y6, whose
  // equation holds the parameter Ks): their terms reach lambda through the projection.
  check_sum_of_squares("rober", {1, 10, 100, 1000}, 1000, "ida");
  check_sum_of_squares("rober_dae", {1, 10, 100, 1000, 1e4}, 1e5, "ida");
  check_sum_of_squares("chemakzo", {1, 10, 60, 180}, 180, "ida");
}

TEST_CASE("ida's adjoint gradient of terminal and running terms of an index-1 DAE against central differences of G",
          "[api][adjoint][ida]") {
  // Chemical Akzo Nobel: G = y6(T)^2 + integral of y1 over [0, T]; y6 is the algebraic
  // component, its equation 0 = Ks y1 y4 - y6 depends on the parameter Ks.
  const auto problem = registry().problem("chemakzo");
  daekit::api::Functional f;
  f.terminal = [](const double* y, double* dy, double*) {
    dy[5] = 2 * y[5];
    return y[5] * y[5];
  };
  f.running = [](double, const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  const double tend = 60;
  const auto s = adjoint_solve(problem, f, 1e-11, "ida", tend);
  INFO(s.message);
  REQUIRE(s.success());
  check_against_differences(problem, s, [&] { return *adjoint_solve(problem, f, 1e-12, "ida", tend).functional_value; });
}

TEST_CASE("ida's adjoint refuses the DAEs it cannot take, naming why", "[api][adjoint][ida]") {
  daekit::api::Functional f;
  f.terminal = [](const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  daekit::SolveOptions o;
  o.adjoint = &f;
  o.output = DK_OUTPUT_END;
  const auto pendulum = daekit::solve(registry().problem("pendulum_dae"), registry().solver("ida"), o);
  CHECK(pendulum.status == daekit::Status::unsupported_problem);
  CHECK_THAT(pendulum.message, Catch::Contains("index-1") && Catch::Contains("index-2"));
  const auto residual = daekit::solve(registry().problem("rober_residual"), registry().solver("ida"), o);
  CHECK(residual.status == daekit::Status::unsupported_problem);
  CHECK_THAT(residual.message, Catch::Contains("residual"));
}

