// radau5 on the test set's problems and on an index-3 DAE, through the loaded plugins.
#include <catch2/catch.hpp>
#include <iostream>

#include "harness.hpp"

using namespace daekit;

TEST_CASE("radau5 solves Fekete at every tolerance from 1e-4 to 1e-12", "[conformance][dae][plugin:radau5][slow]") {
  // Hairer's RADAU5 (the measurement): 61 / 128 / 273 / 583 / 1249 steps, scd
  // 4.29 / 5.31 / 6.95 / 8.71 / 10.74. The floors are the tolerance's digits less 1.5,
  // and 10 at 1e-12 (the reference itself is RADAU5 at 1e-12).
  for (double tol : {1e-4, 1e-6, 1e-8, 1e-10, 1e-12}) {
    test::RunSpec spec;
    spec.problem = "fekete";
    spec.solver = "radau5";
    spec.rtol = spec.atol = tol;
    const auto r = test::run(spec);
    INFO("tol " << tol << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    const Accuracy a = r.accuracy(tol, tol);
    std::cout << "radau5 fekete " << tol << ": " << r.stats().steps << " steps, " << r.stats().nfev << " f, "
              << r.stats().njac << " J, " << r.stats().nlu << " LU, scd " << a.scd << "\n";
    CHECK(a.scd >= -std::log10(tol) - 1.5);
    if (tol == 1e-12) CHECK(a.scd >= 10.0);
    CHECK(r.stats().nlu <= r.stats().steps);  // factorisations are reused
  }
}

TEST_CASE("radau5 solves the stiff ODEs and the index-1 DAE at 1e-6", "[conformance][plugin:radau5]") {
  struct Case {
    const char* problem;
    double atol, min_mescd;
  };
  // Measured: rober mescd 8.0, hires 6.2, vdpol 6.8.
  for (const Case& c : {Case{"rober", 1e-10, 7.0}, Case{"rober_dae", 1e-10, 7.0}, Case{"hires", 1e-6, 5.0},
                        Case{"vdpol", 1e-6, 5.0}}) {
    test::RunSpec spec;
    spec.problem = c.problem;
    spec.solver = "radau5";
    spec.rtol = 1e-6;
    spec.atol = c.atol;
    const auto r = test::run(spec);
    INFO(c.problem << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.accuracy(1e-6, c.atol).mescd >= c.min_mescd);
  }
}

TEST_CASE("radau5 solves an index-3 pendulum with index scaling, and fails without it", "[conformance][dae][plugin:radau5]") {
  test::RunSpec spec;
  spec.problem = "pendulum3";
  spec.solver = "radau5";
  spec.rtol = spec.atol = 1e-6;
  const auto r = test::run(spec);
  REQUIRE(r.status() == Status::success);
  const Eigen::VectorXd y = r.y_end();
  // The position constraint holds, and the energy (zero at the start) is conserved.
  CHECK(std::abs(y[0] * y[0] + y[1] * y[1] - 1.0) < 1e-6);
  CHECK(std::abs(0.5 * (y[2] * y[2] + y[3] * y[3]) + 9.81 * y[1]) < 1e-2);
  auto plain = spec;
  plain.tweak = [](dk_solve_options& o, std::vector<double>&) { o.index_scaling = 0; };
  const auto p = test::run(plain);
  std::cout << "pendulum3 without index scaling: " << status_name(p.status()) << ": " << p.message() << "\n";
  CHECK(p.status() != Status::success);
}

TEST_CASE("radau5 refuses a residual-only problem", "[conformance][plugin:radau5]") {
  test::RunSpec spec;
  spec.problem = "rober_residual";
  spec.solver = "radau5";
  CHECK(test::run(spec).status() == Status::unsupported_problem);
}

TEST_CASE("radau5 solves the index-3 Fekete formulation directly, with the index-2 form's accuracy",
          "[conformance][dae][plugin:radau5]") {
  // The form ModelingToolkit's index reduction turns into an unstable ODE; with h^2
  // scaling of the multipliers' errors radau5 takes it as it is. Measured scd 3.90 /
  // 5.00 / 6.53 / 7.89 / 9.20 at 1e-4 ... 1e-12 in 54 / 109 / 223 / 460 / 977 steps.
  for (double tol : {1e-4, 1e-6, 1e-8, 1e-10, 1e-12}) {
    const auto r = test::run(test::spec_for("fekete3", "radau5", tol, tol));
    INFO("tol " << tol << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.accuracy(tol, tol).scd >= -std::log10(tol) - 3.0);
  }
  // Its reference is the index-2 formulation's without mu.
  loader::ProblemInstance three(*test::registry().find("fekete3"), {});
  loader::ProblemInstance two(*test::registry().find("fekete"), {});
  std::vector<double> r3, r2;
  REQUIRE(three.reference(r3));
  REQUIRE(two.reference(r2));
  REQUIRE(r3.size() == 140);
  for (std::size_t i = 0; i < r3.size(); ++i) CHECK(r3[i] == r2[i]);
}
