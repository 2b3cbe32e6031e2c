// An event that ends a step inside it (any reaction, a terminal function) is at the step's
// own accuracy in the one-step families: the step is taken again to the event, whose time
// is corrected along such steps (docs/events.md, "An event inside a step"). Their
// interpolants alone are of lower order than their steps: restarting from them lost up to
// 2.8 digits (radauiia), 1.5 (radau5) and 1.0 (rodas5p) at rtol 1e-10 on this problem.
//
// The fixture (tests/abi/fixtures/event_models.cpp, reflected_oscillator) reacts at each
// event, reflecting v or changing nothing; the same dynamics only watched
// (watched_oscillator, no root function) is the measure of what the method itself reaches.
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>
#include <numbers>
#include <set>

#include "harness.hpp"

using namespace daekit;

namespace {

// The families whose steps are taken again at events (the plugin files that hold them).
bool retakes_steps(const std::string& solver) {
  static const std::set<std::string> families = {"radau", "rosenbrock"};
  return families.count(test::registry().find(solver)->file.stem().string()) > 0;
}

test::RunResult oscillator(const std::string& problem, const std::string& solver, double tol, const char* reaction) {
  auto spec = test::spec_for(problem, solver, tol, tol);
  spec.params["tend"] = "20";
  if (reaction) spec.params["reaction"] = reaction;
  else spec.params["functions"] = "none";
  return test::run(spec);
}

}  // namespace

TEST_CASE("an event that ends a step is at the step's accuracy: reacting runs as accurate as watching ones",
          "[conformance][events][accuracy]") {
  int checked = 0;
  double worst_loss = -1e9, worst_time = -1e9;
  for (const auto& solver : test::event_solvers()) {
    if (!retakes_steps(solver)) continue;
    for (double tol : {1e-6, 1e-8, 1e-10}) {
      const auto watched = oscillator("watched_oscillator", solver, tol, nullptr);
      // Order-2 methods take more than 100 000 steps at the tightest tolerance.
      if (watched.status() == Status::too_many_steps) continue;
      REQUIRE(watched.status() == Status::success);
      const double reached = watched.accuracy(tol, tol).scd;
      for (const char* reaction : {"reflect", "keep"}) {
        const auto r = oscillator("reflected_oscillator", solver, tol, reaction);
        INFO(solver << " tol " << tol << " " << reaction << ": " << r.message());
        REQUIRE(r.status() == Status::success);
        ++checked;
        // x falls through 0 at pi/2 + k pi, reflected each time (or at every other one).
        const bool reflect = std::string(reaction) == "reflect";
        REQUIRE(r.events.size() == (reflect ? 6u : 3u));
        for (std::size_t k = 0; k < r.events.size(); ++k) {
          const double exact = std::numbers::pi / 2 + static_cast<double>(k) * (reflect ? 1.0 : 2.0) * std::numbers::pi;
          // |dx/dt| = 1 there: an event time has the digits of the state there, which are
          // those the method reaches (within a digit: the error grows along the span).
          const double digits = -std::log10(std::max(std::abs(r.events[k].t - exact), 1e-16));
          worst_time = std::max(worst_time, reached - digits);
          INFO("event " << k << " at " << r.events[k].t << ", exact " << exact << ": " << digits << " digits");
          CHECK(digits >= reached - 1.0);
        }
        const double scd = r.accuracy(tol, tol).scd;
        worst_loss = std::max(worst_loss, reached - scd);
        INFO("scd " << scd << " against " << reached << " watched");
        CHECK(scd >= reached - 0.5);
      }
    }
  }
  std::cout << "reacting events: " << checked << " runs; digits lost against the watched runs at most " << worst_loss
            << "; event times at most " << worst_time << " digits below them\n";
  CHECK(checked >= 40);
}
