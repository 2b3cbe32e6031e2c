// A run that fails still says where it got: asked for the end alone, its one output point
// is the last state it reached (at t_reached, the state every-step output ends with), in
// every solver, as scipy's solve_ivp returns what a failed solve reached. Before, such a
// run returned no point at all and a caller saw an empty y.
#include <catch2/catch.hpp>
#include <cmath>

#include "harness.hpp"

using namespace daekit;

namespace {

test::RunSpec limited(const std::string& solver, dk_output_mode output, std::int64_t max_steps) {
  test::RunSpec spec = test::spec_for("rober", solver, 1e-8);
  spec.output = output;
  spec.tweak = [max_steps](dk_solve_options& o, std::vector<double>&) { o.max_steps = max_steps; };
  return spec;
}

}  // namespace

TEST_CASE("a failed run's end-only output is the last state it reached, in every solver",
          "[conformance][failure][output]") {
  const auto solvers = test::in_tree_solvers();
  REQUIRE(solvers.size() >= 16);
  for (const auto& solver : solvers) {
    INFO(solver);
    const test::RunResult end = test::run(limited(solver, DK_OUTPUT_END, 12));
    const test::RunResult every = test::run(limited(solver, DK_OUTPUT_EVERY_STEP, 12));
    INFO(status_name(end.status()) << ": " << end.message());
    REQUIRE(end.status() == Status::too_many_steps);
    REQUIRE(every.status() == Status::too_many_steps);
    // Where it got: past t0, short of tend, and the point is there.
    REQUIRE(end.t.size() == 1);
    CHECK(end.t[0] == end.result.t_reached);
    CHECK(end.t[0] > 0.0);
    CHECK(end.t[0] < 1e11);
    // The same run, output aside: every-step output ends at that very state.
    REQUIRE(!every.t.empty());
    CHECK(every.t.back() == end.t[0]);
    CHECK((every.y_end() - end.y_end()).cwiseAbs().maxCoeff() <= 1e-14);
    CHECK(end.y_end().allFinite());
  }
}

TEST_CASE("a run that fails at its first step gives the initial state as where it got",
          "[conformance][failure][output]") {
  // A step floor above what Robertson's start allows: every family rejects down to it.
  for (const char* solver : {"rodas5p", "radau5", "bdf"}) {
    INFO(solver);
    test::RunSpec spec = test::spec_for("rober", solver, 1e-10);
    spec.tweak = [](dk_solve_options& o, std::vector<double>&) {
      o.hmin = 1.0;
      o.h0 = 1.0;
    };
    const test::RunResult r = test::run(spec);
    INFO(status_name(r.status()) << ": " << r.message());
    REQUIRE(!is_success(r.status()));
    REQUIRE(r.t.size() == 1);
    CHECK(r.t[0] == r.result.t_reached);
    if (r.t[0] == 0.0) CHECK(r.y_end() == Eigen::Vector3d(1.0, 0.0, 0.0));
  }
}
