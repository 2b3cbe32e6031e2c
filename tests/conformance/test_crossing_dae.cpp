// An index-1 DAE whose algebraic component crosses zero (tests/abi/fixtures/crossing_dae.cpp,
// y3 = y1^2 + y2 with an exact solution), for two things a DAE solver must not get wrong.
//
// Small atol: near the zeros the component's tolerance falls below the algebraic defect
// the earlier steps left (a linearly implicit step satisfies the algebraic equations only
// to its local error). ros34pw2, whose embedded solution keeps 48 % of that defect
// whatever h is, ended such runs with `error_test_failures` (51 rejections at one t, the
// estimate stuck near 1.1) at rtol 1e-2 to 1e-5 with atol = 1e-3 rtol and 1e-6 rtol. The
// driver now re-solves the algebraic components when the estimate stalls
// (numerics/driver.hpp, reinit_on_stall).
//
// Step points: radau5 and radauiia ended their Newton iterations after one correction on
// the previous step's rate (RADAU5's rule), which left the nonlinear algebraic equation's
// quadratic residual in y3: 71 to 670 tolerances at the step points (radauiia 210 to
// 2400) while y1 and y2 were within one. Index-1 DAEs now measure the rate first
// (plugins/radau/kit/error_scale.hpp).
//
// Between the steps: the one-step methods' continuous extensions are weakest on algebraic
// components (ros34pw2's Hermite interpolates them linearly: 860 tolerances at rtol 1e-8;
// radauiia 640, rodas5p 240), so output points at requested times get them re-solved
// from the differential ones (numerics/consistency.hpp, AlgebraicProjection).
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>

#include "harness.hpp"

using namespace daekit;

TEST_CASE("every DAE solver finishes an algebraic component's zero crossings at atol far below rtol",
          "[conformance][dae][atol]") {
  const auto solvers = test::in_tree_solvers();
  REQUIRE(solvers.size() >= 16);
  int checked = 0;
  double worst = 0.0;
  for (const auto& solver : solvers) {
    for (double rtol : {1e-2, 3e-3, 1e-4, 1e-5}) {
      for (double atol_ratio : {1e-3, 1e-6}) {
        const double atol = atol_ratio * rtol;
        const auto r = test::run(test::spec_for("crossing_dae", solver, rtol, atol));
        INFO(solver << " rtol " << rtol << " atol " << atol << ": " << status_name(r.status()) << " " << r.message());
        if (r.status() == Status::unsupported_problem) continue;
        REQUIRE(r.status() == Status::success);
        ++checked;
        std::vector<double> ref;
        REQUIRE(r.problem->reference(ref));
        const Eigen::VectorXd y = r.y_end();
        for (Eigen::Index i = 0; i < y.size(); ++i) {
          const double ref_i = ref[static_cast<std::size_t>(i)];
          const double ratio = std::abs(y[i] - ref_i) / (atol + rtol * std::abs(ref_i));
          worst = std::max(worst, ratio);
          INFO("component " << i + 1 << ": error " << std::abs(y[i] - ref_i) << " = " << ratio << " tolerances");
          // Measured at most 33 (rosenbrock23, order 2); a global error, so not 1.
          CHECK(ratio <= 100.0);
        }
      }
    }
  }
  std::cout << "small atol on crossing_dae: " << checked << " runs, largest error " << worst << " tolerances\n";
  CHECK(checked >= 100);
}

namespace {
void check_algebraic_follows_differential(dk_output_mode output) {
  std::vector<double> times;
  for (int k = 1; k < 200; ++k) times.push_back(0.1 * k + 0.05);
  int checked = 0;
  for (const auto& solver : test::in_tree_solvers()) {
    for (double rtol : {1e-4, 1e-6, 1e-8}) {
      auto spec = test::spec_for("crossing_dae", solver, rtol, rtol);
      spec.output = output;
      if (output == DK_OUTPUT_SAVEAT) spec.saveat = times;
      const auto r = test::run(spec);
      INFO(solver << " rtol " << rtol << ": " << status_name(r.status()) << " " << r.message());
      // ros3p's order-1 estimate takes more than 100 000 steps at 1e-8 (docs/solvers/rosenbrock.md).
      if (r.status() == Status::unsupported_problem || r.status() == Status::too_many_steps) continue;
      REQUIRE(r.status() == Status::success);
      REQUIRE(r.t.size() > 10);
      ++checked;
      // The largest error of each component over the output points, in tolerances.
      double worst[3] = {0.0, 0.0, 0.0};
      for (std::size_t k = 0; k < r.t.size(); ++k) {
        const double t = r.t[k];
        const double exact[3] = {std::sin(t), std::cos(t), std::sin(t) * std::sin(t) + std::cos(t)};
        const Eigen::VectorXd y = r.y_at(k);
        for (int i = 0; i < 3; ++i)
          worst[i] = std::max(worst[i], std::abs(y[i] - exact[i]) / (rtol + rtol * std::abs(exact[i])));
      }
      INFO("y1 " << worst[0] << ", y2 " << worst[1] << ", y3 " << worst[2] << " tolerances");
      // y3 = y1^2 + y2 on the exact solution, so its error follows theirs (measured: at
      // most twice theirs; radau5 had 670 against 0.9 at the step points, ros34pw2 860
      // against 4.8 between them).
      CHECK(worst[2] <= 10.0 * std::max(worst[0], worst[1]) + 1.0);
    }
  }
  CHECK(checked >= 40);
}
}  // namespace

TEST_CASE("at every step point a DAE's algebraic component is as accurate as the differential ones",
          "[conformance][dae][steps]") {
  check_algebraic_follows_differential(DK_OUTPUT_EVERY_STEP);
}

TEST_CASE("between the steps a DAE's algebraic component is as accurate as the differential ones",
          "[conformance][dae][saveat]") {
  check_algebraic_follows_differential(DK_OUTPUT_SAVEAT);
}
