// The slider crank (IVP Test Set `crank`) and its 17-variable form: the test set's
// trap of initial values printed to 9 digits, the consistent-initialisation service
// that repairs them, and the accuracy the test set's solvers reach.
#include <catch2/catch.hpp>
#include <iostream>

#include "harness.hpp"

using namespace daekit;

namespace {

test::RunSpec crank_spec(const char* solver, double tol, dk_init_policy init) {
  test::RunSpec spec = test::spec_for("crank", solver, tol, tol);
  test::set_init(spec, init);
  return spec;
}

}  // namespace

TEST_CASE("crank: the check policy reports the test set's 9-digit initial values at tight tolerances",
          "[conformance][dae][problems]") {
  const auto r = test::run(crank_spec("radau5", 1e-9, DK_INIT_CHECK));
  CHECK(r.status() == Status::inconsistent_initial_values);
  CHECK_THAT(r.message(), Catch::Contains("violated by up to 2.3") && Catch::Contains("a_q3") &&
                              Catch::Contains("--init fix"));
  CHECK(r.stats().steps == 0);
}

TEST_CASE("crank: radau5 fails at t0 on the given values at 1e-10, as RADAU5 does, and solves after --init fix",
          "[conformance][dae][problems][plugin:radau5]") {
  const auto trusted = test::run(crank_spec("radau5", 1e-10, DK_INIT_TRUST));
  CHECK(trusted.status() != Status::success);
  CHECK(trusted.result.t_reached == 0.0);

  const auto fixed = test::run(crank_spec("radau5", 1e-10, DK_INIT_FIX_ALGEBRAIC));
  INFO(fixed.message());
  REQUIRE(fixed.status() == Status::success);
  // The velocity constraints cannot be met by the accelerations and multipliers:
  // the service moves the velocities too, and says so.
  CHECK_THAT(fixed.message(), Catch::Contains("differential components by up to"));
  const Accuracy a = fixed.accuracy(1e-10, 1e-10);
  std::cout << "radau5 crank 1e-10 (init fix): " << fixed.stats().steps << " steps, scd " << a.scd << "\n";
  // The test set's best peers reach scd 4.2 (RADAU5 at 1e-9); measured 4.99.
  CHECK(a.scd >= 4.5);
}

TEST_CASE("crank: radau5 and rodas5p reach the test set's accuracy at 1e-6 and 1e-8", "[conformance][dae][problems]") {
  struct Case {
    const char* solver;
    double tol, min_scd;
    dk_init_policy init;
  };
  // RADAU5 in the test set: scd 2.58 at 1e-6. Measured here: radau5 2.57 (1e-6), 3.35
  // (1e-8); rodas5p 3.21 (1e-6), 5.99 (1e-8; 5.73 to 6.54 over 7e-9 .. 1.4e-8, and it
  // moves with the LU's rounding).
  for (const Case& c : {Case{"radau5", 1e-6, 2.4, DK_INIT_CHECK}, Case{"rodas5p", 1e-6, 3.0, DK_INIT_CHECK},
                        Case{"radau5", 1e-8, 3.2, DK_INIT_FIX_ALGEBRAIC},
                        Case{"rodas5p", 1e-8, 5.5, DK_INIT_FIX_ALGEBRAIC}}) {
    const auto r = test::run(crank_spec(c.solver, c.tol, c.init));
    INFO(c.solver << " " << c.tol << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.accuracy(c.tol, c.tol).scd >= c.min_scd);
  }
}

TEST_CASE("crank: the index-1 and index-3 formulations have the same solution", "[conformance][dae][problems]") {
  // Index 3 with radau5's h^2 scaling of the accelerations and multipliers, index 1
  // with the plain error test. Measured scd: index 1 7.06 at 1e-7 (13237 steps: the
  // acceleration-level form resolves the elastic modes), index 3 2.11 at 1e-8 (163
  // steps; 2.11 to 2.62 over 7e-9 .. 1.4e-8, and it moves with the LU's rounding); the
  // index-2 form: 3.35 at 1e-8.
  struct Case {
    const char* index;
    double tol, min_scd;
  };
  for (const Case& c : {Case{"1", 1e-7, 6.0}, Case{"3", 1e-8, 1.9}}) {
    auto spec = crank_spec("radau5", c.tol, DK_INIT_FIX_ALGEBRAIC);
    spec.params = {{"index", c.index}};
    const auto r = test::run(spec);
    INFO("index " << c.index << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.accuracy(c.tol, c.tol).scd >= c.min_scd);
  }
}

TEST_CASE("crank17: the state-dependent mass matrix form matches the 24-variable reference",
          "[conformance][dae][problems][plugin:ida]") {
  test::RunSpec spec;
  spec.problem = "crank17";
  spec.solver = "ida";
  spec.rtol = spec.atol = 1e-6;
  const auto r = test::run(spec);
  INFO(r.message());
  REQUIRE(r.status() == Status::success);
  // Measured scd 3.69 (IDA on crank at 1e-6: 3.61).
  CHECK(r.accuracy(1e-6, 1e-6).scd >= 3.2);

  // Solvers that need a constant mass matrix say so instead of freezing M(x).
  spec.solver = "radau5";
  const auto refused = test::run(spec);
  CHECK(refused.status() == Status::unsupported_problem);
  CHECK_THAT(refused.message(), Catch::Contains("state-dependent"));
}
