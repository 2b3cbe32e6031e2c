// `daekit ensemble` on one process: members from grids and seeded draws, each output
// against the closed form, the summary against statistics computed here, and bad input.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.hpp"

using daekit::test::run_command;
namespace fs = std::filesystem;

namespace {
std::string ensemble(const std::string& args) { return daekit::test::daekit_binary() + " ensemble --quiet " + args; }
fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("daekit-ensemble-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}
nlohmann::json results_of(const fs::path& dir) {
  std::ifstream in(dir / "results.json");
  return nlohmann::json::parse(in);
}
// The ball falls from rest at height H: before its first bounce x(t) = H - g t^2 / 2, v = -g t.
constexpr double g = 9.81, t_end = 0.5;
}  // namespace

TEST_CASE("an ensemble over a grid and random heights matches the free fall's closed form", "[cli][ensemble]") {
  const fs::path out = fresh_dir("fall");
  std::string log;
  REQUIRE(run_command(ensemble("--problem bouncing_ball --solver rodas5p --rtol 1e-9 --atol 1e-9 --tend 0.5 "
                               "--param-grid gravity=9.81,9.81 --param-random 'height=uniform(5,20)' --samples 7 "
                               "--seed 42 --outputs x,v --out " + out.string()),
                      &log) == 0);
  const auto j = results_of(out);
  REQUIRE(j["members"].size() == 14);  // 2 grid points x 7 draws
  std::vector<double> heights;
  for (const auto& m : j["members"]) {
    REQUIRE(m["status"] == "success");
    const double h = m["params"]["height"].get<double>();
    CHECK(h >= 5);
    CHECK(h <= 20);
    CHECK(m["outputs"]["x"].get<double>() == Approx(h - 0.5 * g * t_end * t_end).epsilon(1e-7));
    CHECK(m["outputs"]["v"].get<double>() == Approx(-g * t_end).epsilon(1e-7));
    heights.push_back(h);
  }
  // The draws differ from each other, and the second grid point draws anew.
  CHECK(heights[0] != heights[1]);
  CHECK(heights[0] != heights[7]);
  // The summary's statistics of x, computed here from the members.
  double mean = 0;
  for (double h : heights) mean += h - 0.5 * g * t_end * t_end;
  mean /= static_cast<double>(heights.size());
  double squares = 0;
  for (double h : heights) squares += std::pow(h - 0.5 * g * t_end * t_end - mean, 2);
  const auto& x = j["summary"]["outputs"]["x"];
  CHECK(x["count"] == 14);
  CHECK(x["mean"].get<double>() == Approx(mean).epsilon(1e-9));
  CHECK(x["sd"].get<double>() == Approx(std::sqrt(squares / 13)).epsilon(1e-9));
  CHECK(x["min"].get<double>() <= x["q05"].get<double>());
  CHECK(x["q95"].get<double>() <= x["max"].get<double>());
  CHECK(j["summary"]["grid_points"].size() == 2);
  CHECK(j["meta"]["seed"] == 42);
  CHECK_THAT(log, Catch::Contains("14 of 14 members succeeded"));
  std::ifstream csv(out / "members.csv");
  std::string header;
  std::getline(csv, header);
  CHECK_THAT(header, Catch::StartsWith("member,grid_point,sample,status,gravity,height,x,v,"));

  SECTION("the same seed gives the same members, another seed others") {
    const fs::path again = fresh_dir("fall-again");
    REQUIRE(run_command(ensemble("--problem bouncing_ball --solver bdf --tend 0.5 --param-grid gravity=9.81,9.81 "
                                 "--param-random 'height=uniform(5,20)' --samples 7 --seed 42 --outputs x --out " +
                                 again.string()),
                        &log) == 0);
    const auto k = results_of(again);
    for (std::size_t i = 0; i < heights.size(); ++i) CHECK(k["members"][i]["params"]["height"] == heights[i]);
    REQUIRE(run_command(ensemble("--problem bouncing_ball --solver bdf --tend 0.5 --param-random "
                                 "'height=uniform(5,20)' --samples 3 --seed 43 --outputs x --out " + again.string() +
                                 " --overwrite"),
                        &log) == 0);
    CHECK(results_of(again)["members"][0]["params"]["height"] != heights[0]);
    fs::remove_all(again);
  }
  fs::remove_all(out);
}

TEST_CASE("a log grid of stiffness runs every member and records failures per member", "[cli][ensemble]") {
  const fs::path out = fresh_dir("vdpol");
  std::string log;
  // At 2 steps no run can finish: every member is a recorded failure, the command still succeeds.
  REQUIRE(run_command(ensemble("--problem vdpol --solver radau5 --param-grid eps=1e-6:1e-2:5:log --max-steps 2 --out " +
                               out.string()),
                      &log) == 0);
  const auto j = results_of(out);
  REQUIRE(j["members"].size() == 5);
  CHECK(j["members"][0]["params"]["eps"].get<double>() == Approx(1e-6));
  CHECK(j["members"][2]["params"]["eps"].get<double>() == Approx(1e-4));
  CHECK(j["members"][4]["params"]["eps"].get<double>() == 1e-2);
  for (const auto& m : j["members"]) CHECK(m["status"] == "too_many_steps");
  CHECK(j["summary"]["succeeded"] == 0);
  CHECK(j["summary"]["outputs"]["y1"]["count"] == 0);
  fs::remove_all(out);
}

TEST_CASE("ensemble refuses bad studies with a message", "[cli][ensemble]") {
  const fs::path out = fresh_dir("bad");
  const std::string base = "--problem vdpol --solver radau5 --out " + out.string() + " ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "nothing varies"},
      {"--param-grid eps", "KEY="},
      {"--param-grid eps=1:2", "FROM:TO:COUNT"},
      {"--param-grid eps=1:2:0.5", "whole number"},
      {"--param-grid eps=0:1:3:log", "log grid"},
      {"--param-grid eps=1e-6,x", "not a finite number"},
      {"--param-random 'eps=gauss(1,2)' --samples 3", "unknown distribution"},
      {"--param-random 'eps=normal(1,-2)' --samples 3", "spread"},
      {"--param-random 'eps=normal(1,0.1)'", "--samples"},
      {"--param-grid eps=1e-6,1e-5 --samples 3", "needs a --param-random"},
      {"--param-grid eps=1e-6,1e-5 --param eps=1", "both fixed"},
      {"--param-grid eps=1e-6,1e-5 --param-random 'eps=uniform(1,2)' --samples 2", "varied twice"},
      {"--param-grid epss=1e-6,1e-5", "eps"},
      {"--param-grid eps=1e-6,1e-5 --outputs y3", "did you mean"},
      // The library's own check, in the words every program using it gets.
      {"--param-grid eps=1e-6,1e-5 --rtol -1", "rtol must be finite"},
      {"--param-grid eps=1e-6,1e-5 --jacobian sometimes", "--jacobian must be auto, analytic or fd"},
      {"--param-grid eps=1e-6,1e-5 --event-samples -2", "--event-samples must not be negative"},
      {"--param-grid eps=1e-6,1e-5 --jobs 0", "--jobs"},
  };
  for (const auto& [args, expected] : cases) {
    INFO(args);
    std::string log;
    CHECK(run_command(ensemble(base + args), &log) == 2);
    CHECK_THAT(log, Catch::Contains(expected));
  }
  fs::remove_all(out);
}

TEST_CASE("an ensemble records the problem's outputs by name, computed at each member's end", "[cli][ensemble][output-vars]") {
  // feed_reactor's outputs: at t = 20 the feed is on, and der(a) = feed - k1 a.
  const fs::path out = fresh_dir("problem-outputs");
  std::string log;
  REQUIRE(run_command(ensemble("--problem feed_reactor --solver radau5 --rtol 1e-9 --atol 1e-11 "
                               "--param-grid feed=1,3 --outputs 'a,der(a),feed_on,2' --out " + out.string()),
                      &log) == 0);
  const auto j = results_of(out);
  REQUIRE(j["members"].size() == 2);
  for (const auto& m : j["members"]) {
    REQUIRE(m["status"] == "success");
    const double feed = m["params"]["feed"].get<double>(), a = m["outputs"]["a"].get<double>();
    CHECK(m["outputs"]["feed_on"].get<double>() == 1.0);
    CHECK(m["outputs"]["der(a)"].get<double>() == Approx(feed - a).margin(1e-12));
    CHECK(m["outputs"].contains("c"));  // component 2 by its number
  }
  const fs::path bad = fresh_dir("problem-outputs-bad");
  CHECK(run_command(ensemble("--problem feed_reactor --solver radau5 --param-grid feed=1,3 --outputs a,feed_onn --out " +
                             bad.string()),
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("no component or output 'feed_onn'") && Catch::Contains("did you mean feed_on"));
  CHECK(run_command(ensemble("--problem feed_reactor --solver radau5 --param-grid feed=1,3 --outputs a,0 --out " +
                             bad.string()),
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("names 'a' twice"));
}
