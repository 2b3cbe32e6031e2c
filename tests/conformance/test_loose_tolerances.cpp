// Loose tolerances are what users start with. A success there must not be a blow-up:
// every solver on the chemistry problems that declare their concentrations >= 0, at
// rtol in {1e-1, 1e-2, 1e-3} (atol the problem's suggested scale times rtol, as `daekit
// run` sets it), either fails with a status or succeeds with an answer within the
// tolerance's reach. The constraint is what makes it hold: without it radau5 ended rober
// at y1 = -4.9e6 (the ODE diverges from just below its equilibrium while every local
// error test passes). The full grid over the library is a benchmark
// (docs/benchmarks/loose-tolerances: scripts/loose-tolerance-grid.sh).
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>

#include "harness.hpp"

using namespace daekit;

namespace {
std::vector<std::string> in_tree_solvers() {
  std::vector<std::string> names;
  for (const auto& plugin : test::registry().plugins())
    if (plugin.manifest.kind == DK_KIND_SOLVER && plugin.file.parent_path() == test::plugin_dir())
      names.push_back(plugin.manifest.name);
  return names;
}
}  // namespace

TEST_CASE("at loose tolerances every solver fails or stays within reach on problems with sign constraints",
          "[conformance][loose]") {
  const auto solvers = in_tree_solvers();
  REQUIRE(solvers.size() >= 16);
  int successes = 0;
  for (const char* problem : {"rober", "rober_dae", "rober_residual", "pollu"}) {
    for (const auto& solver : solvers) {
      for (double rtol : {1e-1, 1e-2, 1e-3}) {
        const auto r = test::run(test::spec_for(problem, solver, rtol, -1.0));
        INFO(problem << " " << solver << " rtol " << rtol << ": " << status_name(r.status()) << " " << r.message());
        if (r.status() == Status::unsupported_problem) continue;
        if (r.status() != Status::success) continue;  // a failure with a status is an honest answer
        ++successes;
        const Eigen::VectorXd y = r.y_end();
        // Concentrations stay >= 0 up to what the error test allows, and never explode.
        const double atol_scale = r.problem->info().atol_scale ? r.problem->info().atol_scale[0] : 1.0;
        CHECK(y.minCoeff() >= -atol_scale * rtol);
        const Accuracy a = r.accuracy(rtol, atol_scale * rtol);
        CHECK(a.mescd >= 0.0);
        // Robertson's scored values are all of order 1e-8 .. 1: relative error <= 1 too.
        if (std::string(problem).rfind("rober", 0) == 0) CHECK(a.scd >= 0.0);
      }
    }
  }
  std::cout << "loose tolerances: " << successes << " successes checked\n";
  CHECK(successes >= 100);
}
