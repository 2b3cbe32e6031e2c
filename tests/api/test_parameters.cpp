// Real parameters (ABI 1.3): declared by a problem, set at creation by name and between
// solves without re-creating it, refused when they are not numbers, not known or not
// acceptable to the model; each solve checked against the closed form at its parameters.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <span>

namespace {

// y' = -k y + c, y(0) = 1: y(t) = c/k + (1 - c/k) exp(-k t). Written here, so the test
// does not trust the plugin's own reference.
double exact(double k, double c, double t) { return c / k + (1.0 - c / k) * std::exp(-k * t); }

class Decay : public daekit::Problem {
 public:
  Decay() {
    info_.name = "decay_in_process";
    info_.title = "y' = -k y + c";
    info_.n = 1;
    info_.tend = 2.0;
    info_.analytic_jacobian = true;
    info_.parameters = {{"k", 1.5, 0.0}, {"c", 0.5, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 1.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0] + p(1);
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    j(0, 0) = -p(0);
    return daekit::Eval::ok;
  }
  daekit::Eval set_parameters(std::span<const double> v) override {
    if (!(v[0] > 0.0)) return fail("k must be positive");
    return Problem::set_parameters(v);
  }
};

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

double end_value(const daekit::ProblemHandle& problem, const std::string& solver) {
  daekit::SolveOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
  REQUIRE(s.success());
  return s.point(s.size() - 1)[0];
}

}  // namespace

TEST_CASE("real parameters change between solves without re-creating the problem", "[api][parameters]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay>());
  const auto& instance = problem.instance();
  REQUIRE(instance.parameter_count() == 2);
  CHECK(instance.parameter_name(0) == "k");
  CHECK(instance.nominal_parameter(1) == 0.5);
  for (const std::string solver : {"radau5", "bdf", "rodas5p", "cvode"}) {
    INFO(solver);
    CHECK(std::abs(end_value(problem, solver) - exact(1.5, 0.5, 2.0)) < 1e-8);  // the nominal values
    instance.set_parameters({4.0, -1.0});
    CHECK(std::abs(end_value(problem, solver) - exact(4.0, -1.0, 2.0)) < 1e-8);
    instance.set_parameters({1.5, 0.5});
  }
  // Refused: a wrong count, a value the model does not take, a value that is not finite.
  CHECK_THROWS_WITH(instance.set_parameters({1.0}), Catch::Contains("has 2 real parameters, 1 values given"));
  CHECK_THROWS_WITH(instance.set_parameters({-1.0, 0.0}), Catch::Contains("k must be positive"));
  CHECK_THROWS_WITH(instance.set_parameters({std::nan(""), 0.0}), Catch::Contains("non-finite"));
  CHECK(std::abs(end_value(problem, "radau5") - exact(1.5, 0.5, 2.0)) < 1e-8);  // the refusals changed nothing
}

TEST_CASE("a real parameter is set at creation by its name, like a string parameter", "[api][parameters]") {
  // rober declares the test set's rate constants k1, k2, k3.
  const auto nominal = registry().problem("rober");
  REQUIRE(nominal.instance().parameter_count() == 3);
  CHECK(nominal.instance().parameter_name(1) == "k2");
  CHECK(nominal.instance().nominal_parameter(1) == 3e7);
  const auto faster = registry().problem("rober", {{"k1", "0.08"}});
  daekit::SolveOptions options;
  options.rtol = 1e-8;
  options.tend = 40.0;
  const auto a = daekit::solve(nominal, registry().solver("radau5"), options);
  const auto b = daekit::solve(faster, registry().solver("radau5"), options);
  REQUIRE(a.success());
  REQUIRE(b.success());
  CHECK(b.point(b.size() - 1)[0] < a.point(a.size() - 1)[0]);  // A -> B twice as fast: less A left at t = 40
  CHECK_THROWS_WITH(registry().problem("rober", {{"k4", "1"}}),
                    Catch::Contains("unknown parameter 'k4'") && Catch::Contains("k1, k2, k3"));
  CHECK_THROWS_WITH(registry().problem("rober", {{"k1", "fast"}}), Catch::Contains("must be a finite number"));
}
