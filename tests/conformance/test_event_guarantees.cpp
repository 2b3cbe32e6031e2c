// What docs/events.md guarantees, as classes, in every solver that claims events:
//  * root functions that vary much faster than the solution are sampled inside each
//    step, so crossings that come in pairs within one step are found: with declared time
//    scales at every tolerance and frequency, with the default sampling where the steps'
//    sample spacing resolves the function;
//  * a root that is flat where it crosses is found by the SUNDIALS adapters too (they
//    search on their interpolants with the core's root finder, never fail on it);
//  * an event exactly at tend is not handled, in every solver alike;
//  * a run stopped by a terminal event is scored where it stopped.
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "harness.hpp"

using namespace daekit;

namespace {

// Zeros of sin(2 pi f t) in (0, tend), tend itself left out: m / (2 f) for m = 1, 2, ...
int zeros_before(double f, double tend) {
  int count = 0;
  for (int m = 1; m / (2.0 * f) < tend * (1.0 - 1e-12); ++m) ++count;
  return count;
}

// How often root function k fired.
int fired(const test::RunResult& r, int k) {
  int count = 0;
  for (const auto& e : r.events) count += e.index == k ? 1 : 0;
  return count;
}

test::RunSpec fast_roots(const std::string& solver, double tol, const std::string& frequencies, bool scales,
                         int samples = 0) {
  test::RunSpec s = test::spec_for("fast_roots", solver, tol, tol);
  s.params["frequencies"] = frequencies;
  s.params["time_scales"] = scales ? "true" : "false";
  if (samples != 0) s.tweak = [samples](dk_solve_options& o, std::vector<double>&) { o.event_samples = samples; };
  return s;
}

}  // namespace

TEST_CASE("root functions with declared time scales lose no crossing at any tolerance or frequency",
          "[conformance][events][sampling]") {
  const auto solvers = test::event_solvers();
  REQUIRE(solvers.size() >= 16);
  const std::vector<double> f = {0.7, 1.3, 3.1};
  for (const auto& solver : solvers) {
    for (double tol : {1e-4, 1e-6, 1e-8}) {
      // ros3p's order-1 estimate makes 1e-8 a run of 10^5 steps: its class is shown at 1e-6.
      if (solver == "ros3p" && tol < 1e-6) continue;
      // Without any interior sample (event_samples -1) the time scales alone bound the steps.
      for (int samples : {0, -1}) {
        const auto r = test::run(fast_roots(solver, tol, "0.7,1.3,3.1", true, samples));
        INFO(solver << " tol " << tol << " samples " << samples << ": " << r.message());
        REQUIRE(r.status() == Status::success);
        for (int k = 0; k < 3; ++k) CHECK(fired(r, k) == zeros_before(f[k], 10.0));
        CHECK(r.stats().nroots_fired == static_cast<std::int64_t>(r.events.size()));
      }
    }
  }
}

TEST_CASE("the default sampling finds the crossings of sin(2 pi t) over a smooth decay at every tolerance",
          "[conformance][events][sampling]") {
  // The example: 19 sign changes on (0, 10); before the sampling rodas5p found 1 at
  // 1e-4, cvode 5. The steps here stay below 5.5 (11 samples 0.5 apart).
  for (const auto& solver : test::event_solvers()) {
    for (double tol : {1e-4, 1e-6, 1e-8}) {
      if (solver == "ros3p" && tol < 1e-6) continue;
      const auto r = test::run(fast_roots(solver, tol, "1", false));
      INFO(solver << " tol " << tol << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      CHECK(fired(r, 0) == 19);
    }
  }
}

TEST_CASE("without interior samples and without time scales crossings in pairs can be missed (the control)",
          "[conformance][events][sampling]") {
  // The control that shows the sampling is what finds them: rodas5p at 1e-4 with the
  // step's ends (and the root finder's midpoint look) only.
  const auto r = test::run(fast_roots("rodas5p", 1e-4, "1", false, -1));
  REQUIRE(r.status() == Status::success);
  CHECK(fired(r, 0) < 19);
}

TEST_CASE("a root that is flat where it crosses is found by every solver, the SUNDIALS adapters included",
          "[conformance][events]") {
  // x = cos t against 0.999: crossings 0.0447 either side of each multiple of 2 pi, where
  // x barely moves. SUNDIALS' own root finder stopped ida and cvode with IDA_ILL_INPUT here.
  for (const auto& solver : test::event_solvers()) {
    for (double tol : {1e-6, 1e-9}) {
      if (solver == "ros3p" && tol < 1e-6) continue;
      test::RunSpec s = test::spec_for("watched_oscillator", solver, tol, tol);
      s.params["functions"] = "flat";
      s.params["tend"] = "85";
      const auto r = test::run(s);
      INFO(solver << " tol " << tol << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      REQUIRE(r.events.size() == 27);
      // Each crossing where it belongs (the pair's partners are 0.089 apart; where x barely
      // moves, its phase error over 13 periods becomes the times', up to 1e-2 at 1e-6).
      const double pi = std::acos(-1.0), d = std::acos(0.999);
      for (int k = 0; k < 27; ++k) {
        const double exact = k == 0 ? d : (k + 1) / 2 * 2 * pi + (k % 2 == 1 ? -d : d);
        CHECK(std::abs(r.events[static_cast<std::size_t>(k)].t - exact) < 0.02);
      }
    }
  }
}

TEST_CASE("an event exactly at tend is not handled, in every solver alike", "[conformance][events]") {
  for (const auto& solver : test::event_solvers()) {
    const double tol = solver == "ros3p" ? 1e-6 : 1e-8;
    for (const char* tend : {"10", "9.5"}) {
      test::RunSpec s = test::spec_for("sawtooth", solver, tol, tol);
      s.params["tend"] = tend;
      const auto r = test::run(s);
      INFO(solver << " tend " << tend << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      CHECK(r.events.size() == 9);
      // The state at tend is the left limit: 1 at tend = 10 (the reset is not made), 0.5 at 9.5.
      CHECK(r.y_end()[0] == Approx(std::string(tend) == "10" ? 1.0 : 0.5).margin(1e-6));
    }
  }
}

TEST_CASE("a run stopped by a terminal event is scored where it stopped; reports count events and roots apart",
          "[conformance][events][cli]") {
  std::string out;
  const std::string daekit = "(" + test::daekit_binary();
  const std::string fixtures = " --plugin " + test::fixture_dir() + "/fixture_event_models.so";
  REQUIRE(test::run_command(daekit + " run" + fixtures + " --problem sawtooth --param terminal=true --solver radau5 --rtol 1e-8 "
                                     "--report json 2>/dev/null)",
                            &out) == 0);
  const auto j = nlohmann::json::parse(out.substr(out.find('{')));
  CHECK(j["status"] == "stopped_by_event");
  REQUIRE(!j["scd"].is_null());
  CHECK(j["scd"].get<double>() > 6.0);
  // Two functions vanishing together are one event of two roots.
  REQUIRE(test::run_command(daekit + " run" + fixtures + " --problem watched_oscillator --param functions=simultaneous "
                                     "--solver rodas5p --rtol 1e-8 --report json 2>/dev/null)",
                            &out) == 0);
  const auto k = nlohmann::json::parse(out.substr(out.find('{')));
  CHECK(k["nevents"] == 3);
  CHECK(k["nroots_fired"] == 6);
  CHECK(k["events"].size() == 6);
  REQUIRE(test::run_command(daekit + " run" + fixtures + " --problem watched_oscillator --param functions=simultaneous "
                                     "--solver rodas5p --rtol 1e-8 2>/dev/null)",
                            &out) == 0);
  CHECK(out.find("events     3 (6 root functions fired") != std::string::npos);
}

TEST_CASE("event sampling settings: bad values are refused, a time scale bounds the steps", "[conformance][events]") {
  std::string out;
  const std::string daekit =
      test::daekit_binary() + " run --plugin " + test::fixture_dir() + "/fixture_event_models.so --problem fast_roots";
  CHECK(test::run_command(daekit + " --solver rodas5p --event-samples -3", &out) != 0);
  CHECK(out.find("--event-samples") != std::string::npos);
  CHECK(test::run_command(daekit + " --solver rodas5p --derivative-check maybe", &out) != 0);
  CHECK(out.find("--derivative-check") != std::string::npos);
  // hmin above what the time scale allows: refused, naming the root function.
  CHECK(test::run_command(daekit + " --param time_scales=true --param frequencies=1 --solver rodas5p "
                                   "--event-samples 0 --hmin 0.4",
                          &out) != 0);
  CHECK(out.find("time scale") != std::string::npos);
}
