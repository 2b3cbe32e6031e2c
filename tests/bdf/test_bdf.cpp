// The BDF and NDF solvers through the loaded plugin: Robertson in all three forms,
// Fekete across the tolerances, the slider crank, the residual-form path and its
// consistent initialisation, and the failures a multistep code must report.
#include <catch2/catch.hpp>
#include <iostream>

#include "harness.hpp"

using namespace daekit;

using test::set_init;
using test::spec_for;

TEST_CASE("bdf and ndf solve Robertson as ODE, mass-matrix DAE and residual with the same answer",
          "[conformance][plugin:bdf]") {
  // rtol 1e-8, atol 1e-12 (the test set's atol = 1e-4 rtol). Measured mescd: 8.28 (ODE),
  // 8.47 (DAE), 7.94 (residual).
  for (const char* solver : {"bdf", "ndf"}) {
    std::vector<Eigen::VectorXd> ends;
    for (const char* problem : {"rober", "rober_dae", "rober_residual"}) {
      auto s = spec_for(problem, solver, 1e-8, 1e-12);
      const auto r = test::run(s);
      INFO(solver << " on " << problem << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      CHECK(r.accuracy(1e-8, 1e-12).mescd >= 7.0);
      ends.push_back(r.y_end());
    }
    // The residual path agrees with the mass-matrix path to the accuracy of both.
    for (Eigen::Index i = 0; i < 3; ++i) {
      INFO(solver << " component " << i + 1);
      CHECK(std::abs(ends[2][i] - ends[1][i]) <= 1e-6 * std::abs(ends[1][i]) + 1e-11);
    }
  }
}

TEST_CASE("bdf and ndf solve Fekete from 1e-4 to 1e-12", "[conformance][dae][plugin:bdf][slow]") {
  struct Case {
    double tol, bdf_scd, ndf_scd;
  };
  // Floors about half a digit under the measured scd (bdf / ndf): 1e-4 2.86/3.27,
  // 1e-5 3.59/4.20, 1e-7 5.38/5.88, 1e-8 7.24/6.28, 1e-10 8.25/7.87, 1e-12 10.44/9.45.
  // The scd moves by up to 0.3 between neighbouring tolerances (ndf: 6.09 to 6.58 over
  // 7e-9 .. 1.4e-8) and with the rounding of the LU, hence the margins.
  for (const Case& c : {Case{1e-4, 2.4, 2.8}, Case{1e-5, 3.1, 3.7}, Case{1e-7, 4.9, 5.4}, Case{1e-8, 6.5, 5.8},
                        Case{1e-10, 7.2, 7.3}, Case{1e-12, 9.3, 9.0}}) {
    for (const char* solver : {"bdf", "ndf"}) {
      const auto r = test::run(spec_for("fekete", solver, c.tol, c.tol));
      INFO(solver << " at " << c.tol << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      const double scd = r.accuracy(c.tol, c.tol).scd;
      std::cout << solver << " fekete " << c.tol << ": " << r.stats().steps << " steps, " << r.stats().nlu
                << " LU, scd " << scd << "\n";
      CHECK(scd >= (std::string(solver) == "bdf" ? c.bdf_scd : c.ndf_scd));
      // Factorisations are kept across steps while Newton converges.
      CHECK(r.stats().nlu * 10 < r.stats().steps);
    }
  }
}

TEST_CASE("bdf and ndf restart afresh at breakpoints: the next interval does not follow the last bits of the history",
          "[conformance][plugin:bdf]") {
  // nand restarts at 15 breakpoints. When the first step after a restart was the step cut
  // short to land on the breakpoint, scaled, a relative change of 1e-9 in rtol spread
  // bdf's scd at 1e-6 over 6.30-7.29 (2454-2485 steps), as the BLAS kernel's rounding did
  // (issue #15); starting from the slope there, it is 7.18 for all (2410 steps; ndf 6.33).
  for (const char* solver : {"bdf", "ndf"}) {
    double lo = 1e300, hi = -1e300;
    std::int64_t steps_lo = INT64_MAX, steps_hi = 0;
    for (int i = 0; i < 4; ++i) {
      const double rtol = 1e-6 * (1.0 + i * 1e-9);
      const auto r = test::run(spec_for("nand", solver, rtol));
      INFO(solver << " at rtol " << rtol << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      const double scd = r.accuracy(rtol, rtol).scd;
      lo = std::min(lo, scd), hi = std::max(hi, scd);
      steps_lo = std::min<std::int64_t>(steps_lo, r.stats().steps);
      steps_hi = std::max<std::int64_t>(steps_hi, r.stats().steps);
    }
    INFO(solver << ": scd " << lo << " .. " << hi << ", steps " << steps_lo << " .. " << steps_hi);
    CHECK(hi - lo <= 0.1);
    CHECK(steps_hi - steps_lo <= steps_lo / 100);
  }
}

TEST_CASE("bdf solves the slider crank in both formulations", "[conformance][dae][plugin:bdf]") {
  // Measured scd: crank 2.70 (1e-6), 3.36 (1e-8 after --init fix); crank17 (state-
  // dependent mass matrix, residual path) 3.02 at 1e-8 after --init fix. Over the BLAS
  // kernels Prescott .. Zen crank spans 2.25-2.68 at 1e-6 and 3.29-3.44 at 1e-8 (issue #15).
  auto crank6 = spec_for("crank", "bdf", 1e-6, 1e-6);
  const auto a = test::run(crank6);
  REQUIRE(a.status() == Status::success);
  CHECK(a.accuracy(1e-6, 1e-6).scd >= 2.1);

  auto crank8 = spec_for("crank", "bdf", 1e-8, 1e-8);
  set_init(crank8, DK_INIT_FIX_ALGEBRAIC);
  const auto b = test::run(crank8);
  INFO(b.message());
  REQUIRE(b.status() == Status::success);
  CHECK(b.accuracy(1e-8, 1e-8).scd >= 3.1);

  auto crank17 = spec_for("crank17", "bdf", 1e-8, 1e-8);
  set_init(crank17, DK_INIT_FIX_ALGEBRAIC);
  const auto c = test::run(crank17);
  INFO(c.message());
  REQUIRE(c.status() == Status::success);
  CHECK_THAT(c.message(), Catch::Contains("differential components"));
  CHECK(c.accuracy(1e-8, 1e-8).scd >= 2.8);
}

TEST_CASE("bdf's residual-form initialisation: inconsistent y'0 is reported, and computed on request",
          "[conformance][plugin:bdf]") {
  auto bad = spec_for("rober_residual", "bdf", 1e-6, 1e-10);
  bad.tweak_yp0 = [](std::vector<double>& yp0) { yp0[0] = 1.0; };
  const auto checked = test::run(bad);
  CHECK(checked.status() == Status::inconsistent_initial_values);
  CHECK_THAT(checked.message(), Catch::Contains("F(t0, y0, y'0)") && Catch::Contains("--init fix"));

  set_init(bad, DK_INIT_FIX_ALGEBRAIC);
  const auto fixed = test::run(bad);
  INFO(fixed.message());
  REQUIRE(fixed.status() == Status::success);
  CHECK_THAT(fixed.message(), Catch::Contains("made the initial values consistent"));
  CHECK(fixed.accuracy(1e-6, 1e-10).mescd >= 5.5);

  // A residual-only problem without y'(t0): refused by check, computed by fix.
  auto none = spec_for("residual_only", "bdf", 1e-6);
  CHECK(test::run(none).status() == Status::inconsistent_initial_values);
  set_init(none, DK_INIT_FIX_ALGEBRAIC);
  const auto solved = test::run(none);
  REQUIRE(solved.status() == Status::success);
  CHECK(std::abs(solved.y_end()[0] - std::exp(-1.0)) < 1e-4);
}

TEST_CASE("bdf reports model failures and singular matrices, and refuses index 3",
          "[conformance][badinput][plugin:bdf]") {
  const auto nan = test::run(spec_for("nan_model", "bdf", 1e-6));
  CHECK(nan.status() == Status::evaluation_failure);
  CHECK_THAT(nan.message(), Catch::Contains("non-finite") && Catch::Contains("component 2"));
  CHECK(nan.result.t_reached <= 0.5);

  const auto fatal = test::run(spec_for("fatal_model", "bdf", 1e-6));
  CHECK(fatal.status() == Status::evaluation_failure);
  CHECK_THAT(fatal.message(), Catch::Contains("pressure table exhausted"));

  const auto singular = test::run(spec_for("singular_dae", "bdf", 1e-6));
  CHECK(singular.status() == Status::singular_matrix);
  CHECK(singular.stats().nsingular > 0);

  // Index 3 is refused up front, with the reason.
  const auto pendulum = test::run(spec_for("pendulum3", "bdf", 1e-6, 1e-6));
  CHECK(pendulum.status() == Status::unsupported_problem);
  CHECK_THAT(pendulum.message(), Catch::Contains("index 3"));
}

TEST_CASE("bdf and ndf follow van der Pol's relaxation jumps at loose tolerances, at every nearby tolerance",
          "[conformance][plugin:bdf]") {
  // A Jacobian kept from inside a jump made the Newton iteration after it accept states
  // off the slow manifold (residual 1e6, two small corrections): the runs ended on the
  // wrong branch with success, scd -0.24 or 0.60, in one to five of every five
  // neighbouring tolerances. With a new Jacobian for every new iteration matrix the least
  // over these windows is 1.10 (1e-3) and 2.01 (1e-4); a failure would be an honest answer.
  int successes = 0;
  for (const char* problem : {"vdpol", "vdpolm"}) {
    for (const char* solver : {"bdf", "ndf"}) {
      for (const auto& [base, floor] : {std::pair{1e-3, 0.9}, std::pair{1e-4, 1.7}}) {
        for (double factor : {0.8, 0.9, 1.0, 1.1, 1.25}) {
          const double rtol = base * factor;
          const auto r = test::run(spec_for(problem, solver, rtol));
          INFO(problem << " " << solver << " rtol " << rtol << ": " << status_name(r.status()) << " "
                       << r.message());
          if (r.status() != Status::success) continue;
          ++successes;
          CHECK(r.accuracy(rtol, rtol).scd >= floor);
        }
      }
    }
  }
  CHECK(successes >= 36);
}
