// Adjoint gradients (ABI 1.3 part C) through daekit::solve: dG/dp of data terms, a
// terminal and a running term, against forward sensitivities and central differences of
// G itself, on Robertson, HIRES and POLLU (25 rate constants); requests a solver or
// problem cannot meet are refused before the solve.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>

namespace {

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

// Measurements of every component at `times`, sigma relative to the nominal solution's
// value, the data 1% off it: r_k = (y_c(t_k) - d_k) / sigma_k.
struct DataTerms {
  std::vector<double> t, value, sigma;
  std::vector<std::size_t> component;
};

DataTerms data_for(const daekit::ProblemHandle& problem, const std::vector<double>& times, double tend = NAN) {
  daekit::SolveOptions o;
  if (!std::isnan(tend)) o.tend = tend;
  o.rtol = 1e-10;
  o.atol = 1e-14;
  o.saveat = times;
  const auto s = daekit::solve(problem, registry().solver("radau5"), o);
  REQUIRE(s.success());
  DataTerms d;
  for (std::size_t k = 0; k < s.size(); ++k)
    for (std::size_t i = 0; i < s.n; ++i) {
      const double y = s.point(k)[i];
      d.t.push_back(s.t[k]);
      d.component.push_back(i);
      d.sigma.push_back(std::max(std::abs(y) * 0.01, 1e-12));
      d.value.push_back(y * 1.01 + 0.1 * d.sigma.back());
    }
  return d;
}

daekit::api::Functional sum_of_squares(const DataTerms& d) {
  daekit::api::Functional f;
  f.data_t = d.t;
  f.data_term = [&d](std::size_t k, const double* y, double* dy, double*) {
    dy[d.component[k]] = 1.0 / d.sigma[k];
    return (y[d.component[k]] - d.value[k]) / d.sigma[k];
  };
  return f;
}

// dG/dp of the sum of squares from forward sensitivities at the data times.
std::vector<double> forward_gradient(const daekit::ProblemHandle& problem, const DataTerms& d, double rtol,
                                     double tend = NAN) {
  daekit::SolveOptions o;
  if (!std::isnan(tend)) o.tend = tend;
  o.rtol = rtol;
  o.atol = rtol * 1e-4;
  o.saveat = d.t;
  o.saveat.erase(std::unique(o.saveat.begin(), o.saveat.end()), o.saveat.end());
  o.sensitivities = {"all"};
  o.sensitivity_error_control = true;
  const auto s = daekit::solve(problem, registry().solver("radau5"), o);
  REQUIRE(s.success());
  std::vector<double> g(s.sensitivity_count(), 0.0);
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    const std::size_t point = static_cast<std::size_t>(std::find(s.t.begin(), s.t.end(), d.t[k]) - s.t.begin());
    const double r = (s.point(point)[d.component[k]] - d.value[k]) / d.sigma[k];
    for (std::size_t q = 0; q < g.size(); ++q) g[q] += r * s.sensitivity(point, d.component[k], q) / d.sigma[k];
  }
  return g;
}

daekit::Solution adjoint_solve(const daekit::ProblemHandle& problem, const daekit::api::Functional& f, double rtol,
                               const std::string& solver = "cvode", double tend = NAN) {
  daekit::SolveOptions o;
  if (!std::isnan(tend)) o.tend = tend;
  o.rtol = rtol;
  o.atol = rtol * 1e-4;
  o.output = DK_OUTPUT_END;
  o.adjoint = &f;
  return daekit::solve(problem, registry().solver(solver), o);
}

// The largest difference relative to the largest component of `reference`.
double relative_difference(const std::vector<double>& a, const std::vector<double>& reference) {
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    worst = std::max(worst, std::abs(a[k] - reference[k]));
    scale = std::max(scale, std::abs(reference[k]));
  }
  return worst / scale;
}

// The adjoint gradient of a sum of squares of every component at `times` against forward
// sensitivities (radau5, rtol 1e-11), at rtol 1e-6, 1e-8, 1e-10: within 2e4 rtol, and ten
// times closer at least for each hundredfold tolerance.
void check_sum_of_squares(const std::string& name, const std::vector<double>& times, double tend,
                          const std::string& solver) {
  INFO(name << " by " << solver);
  const auto problem = registry().problem(name);
  const DataTerms d = data_for(problem, times, tend);
  const auto f = sum_of_squares(d);
  const auto reference = forward_gradient(problem, d, 1e-11, tend);
  double previous = INFINITY;
  for (const double rtol : {1e-6, 1e-8, 1e-10}) {
    INFO("rtol " << rtol);
    const auto s = adjoint_solve(problem, f, rtol, solver, tend);
    INFO(s.message);
    REQUIRE(s.success());
    REQUIRE(s.gradient.size() == problem.instance().parameter_count());
    const double error = relative_difference(s.gradient, reference);
    CHECK(error < 2e4 * rtol);
    CHECK(error < previous / 10);
    previous = error;
    REQUIRE(s.functional_value);
    CHECK(*s.functional_value > 0);
  }
}

}  // namespace

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
  // A term that throws fails the solve with its message.
  daekit::api::Functional throwing;
  throwing.terminal = [](const double*, double*, double*) -> double { throw std::runtime_error("no phi here"); };
  o.adjoint = &throwing;
  const auto s = daekit::solve(registry().problem("rober"), registry().solver("cvode"), o);
  CHECK_FALSE(s.success());
  CHECK_THAT(s.message, Catch::Contains("no phi here"));
}

TEST_CASE("per-cell parameters of the brusselator: its nominal solution unchanged, the adjoint gradients (cvode, ida) "
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
  for (const std::string solver : {"cvode", "ida"}) {  // both backward passes in J^T's sparse pattern (KLU)
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
  // Five-point central differences of G (h = 1e-3 p; truncation ~ h^4): with three
  // points, the h small enough for their truncation error met IDA's own error in G
  // (1.5e-12 relative at rtol 1e-12, measured) divided by h, 1e-4 relative on k3. That
  // error, times the formula's 18/12, bounds what the differences can resolve.
  const auto& instance = problem.instance();
  const std::vector<double> nominal = instance.parameters();
  auto g_at = [&](std::size_t q, double value) {
    std::vector<double> p = nominal;
    p[q] = value;
    instance.set_parameters(p);
    const double g = *adjoint_solve(problem, f, 1e-12, "ida", tend).functional_value;
    instance.set_parameters(nominal);
    return g;
  };
  for (std::size_t q = 0; q < nominal.size(); ++q) {
    INFO(instance.parameter_name(q));
    const double h = 1e-3 * std::abs(nominal[q]), p = nominal[q];
    const double difference = (8 * (g_at(q, p + h) - g_at(q, p - h)) - (g_at(q, p + 2 * h) - g_at(q, p - 2 * h))) / (12 * h);
    INFO("adjoint " << s.gradient[q] << ", differences " << difference);
    CHECK(std::abs(s.gradient[q] - difference) <= 1e-6 * std::abs(difference) + 3e-12 * *s.functional_value / h);
  }
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
