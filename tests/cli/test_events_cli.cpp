// What `daekit run` says about events: the text report, the `--report json` keys
// (events, nevents, stats), the marked points in --output, and --max-events.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "harness.hpp"

using daekit::test::run_command;

namespace {
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }
// stdout alone (run_command merges stderr into its output).
std::string quiet(const std::string& args) {
  std::string s = "(";
  s += daekit_cmd(args);
  s += " 2>/dev/null)";
  return s;
}
}  // namespace

TEST_CASE("run reports every event: text lines, JSON entries and counts", "[cli][events]") {
  std::string out;
  REQUIRE(run_command(quiet("run --problem bouncing_ball --solver rodas5p --report json"), &out) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["status"] == "success");
  REQUIRE(j["events"].size() == 20);
  CHECK(j["nevents"] == 20);
  CHECK(j["stats"]["nevents"] == 20);
  CHECK(j["stats"]["nroot_evals"].get<long>() > 20);
  const auto& first = j["events"][0];
  CHECK(first["kind"] == "root");
  CHECK(first["index"] == 0);
  CHECK(first["name"] == "floor");
  CHECK(first["direction"] == -1);
  CHECK(first["action"] == "continue");
  CHECK(first["t"].get<double>() == Approx(std::sqrt(2.0 * 10.0 / 9.81)).epsilon(1e-9));

  REQUIRE(run_command(daekit_cmd("run --problem bouncing_ball --solver radau5"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("events     20"));
  CHECK_THAT(out, Catch::Contains("root 0 (floor) falling"));

  // A problem without events says so with an empty list, not a missing key.
  REQUIRE(run_command(quiet("run --problem vdpol --solver rodas5p --report json"), &out) == 0);
  const auto plain = nlohmann::json::parse(out);
  CHECK(plain["events"].empty());
  CHECK(plain["nevents"] == 0);
}

TEST_CASE("run --output marks both limits of every reset in a last column", "[cli][events]") {
  const std::string file = "/tmp/daekit-events-" + std::to_string(::getpid()) + ".csv";
  std::string out;
  REQUIRE(run_command(daekit_cmd("run --problem bouncing_ball --solver rodas5p --every-step --output " + file), &out) == 0);
  std::ifstream in(file);
  std::string header, line;
  std::getline(in, header);
  CHECK(header == "t,x,v,event");
  int left = 0, right = 0;
  double last_t = -1.0;
  while (std::getline(in, line)) {
    const double t = std::stod(line);
    CHECK(t >= last_t);  // in time order
    last_t = t;
    const std::string mark = line.substr(line.rfind(',') + 1);
    left += mark == "1";
    right += mark == "2";
  }
  CHECK(left == 20);
  CHECK(right == 20);
  std::remove(file.c_str());
}

TEST_CASE("run --max-events stops chattering with too_many_events and refuses nonsense", "[cli][events]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem bouncing_ball --solver bdf --max-events 5"), &out) == 1);
  CHECK_THAT(out, Catch::Contains("too_many_events"));
  CHECK_THAT(out, Catch::Contains("more than 5 events"));
  for (const char* bad : {"0", "-3", "x"}) {
    INFO(bad);
    CHECK(run_command(daekit_cmd(std::string("run --problem bouncing_ball --solver bdf --max-events ") + bad), &out) == 2);
  }
}

TEST_CASE("info lists a problem's events and constraints and a solver's support for them", "[cli][events]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("info thermostat"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("events      2 root functions"));
  CHECK_THAT(out, Catch::Contains("root 1 (switch off (rises through high)): rising"));
  REQUIRE(run_command(daekit_cmd("info rober"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("constraints 3 components with sign constraints"));
  REQUIRE(run_command(daekit_cmd("info ida"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("events      yes"));
  CHECK_THAT(out, Catch::Contains("constraints yes"));
}
