// Real parameters on the command line (ABI 1.3): `--param NAME=VALUE` sets them as it sets
// string parameters, `daekit info` lists them, and a bad name or value is an error with a
// non-zero exit. The end value is checked against the closed form computed here.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "harness.hpp"

using daekit::test::run_command;

namespace {

std::string daekit_with_fixture(const std::string& args) {
  return daekit::test::daekit_binary() + " " + args + " --plugin " + daekit::test::fixture_dir() +
         "/parameters/fixture_parameter_models.so 2>&1";
}

double last_value(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return std::stod(last.substr(last.find(',') + 1));
}

}  // namespace

TEST_CASE("a real parameter set on the command line gives the closed form's solution at its value", "[cli][parameters]") {
  const auto file = std::filesystem::temp_directory_path() / ("daekit-params-" + std::to_string(::getpid()) + ".csv");
  std::string out;
  for (const auto& [k, c] : {std::pair{1.5, 0.5}, std::pair{3.0, -2.0}}) {
    INFO("k = " << k << ", c = " << c);
    REQUIRE(run_command(daekit_with_fixture("run --problem parametric_decay --solver radauiia --rtol 1e-11 --atol 1e-13"
                                            " --param k=" + std::to_string(k) + " --param c=" + std::to_string(c) +
                                            " --output " + file.string()),
                        &out) == 0);
    const double expected = c / k + (1.0 - c / k) * std::exp(-k * 2.0);
    CHECK(std::abs(last_value(file) - expected) < 1e-9);
  }
  std::filesystem::remove(file);
}

TEST_CASE("a real parameter's bad name or value is refused with a message", "[cli][parameters]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--param kk=2", "unknown parameter 'kk' (did you mean k?)"},
      {"--param k=fast", "parameter 'k' must be a finite number, got 'fast'"},
      {"--param k=inf", "must be a finite number"},
      {"--param k=-1", "the parameters were refused: k must be positive"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    std::string out;
    CHECK(run_command(daekit_with_fixture("run --problem parametric_decay --solver radau5 " + args), &out) == 2);
    CHECK_THAT(out, Catch::Contains(message));
  }
}

TEST_CASE("daekit info lists a problem's real parameters", "[cli][parameters]") {
  std::string out;
  REQUIRE(run_command(daekit_with_fixture("info parametric_decay"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("real parameters") && Catch::Contains("k          nominal 1.5") &&
                      Catch::Contains("c          nominal 0.5"));
  REQUIRE(run_command(daekit::test::daekit_binary() + " info rober 2>&1", &out) == 0);
  CHECK_THAT(out, Catch::Contains("k2         nominal 3e+07"));
}

TEST_CASE("a real parameter away from its nominal value is never scored against the stored reference",
          "[cli][parameters]") {
  // rober's reference is the test set's, for k1, k2, k3 at their nominal values.
  std::string out;
  const std::string run = daekit::test::daekit_binary() + " run --problem rober --solver rodas5p --rtol 1e-6 --report json";
  REQUIRE(run_command(run + " 2>/dev/null", &out) == 0);
  CHECK_THAT(out, Catch::Contains("\"reference\": \"IVP Test Set"));
  REQUIRE(run_command(run + " --param k2=1e7 2>/dev/null", &out) == 0);
  CHECK_THAT(out, Catch::Contains("\"scd\": null") && Catch::Contains("\"reference\": null"));
  REQUIRE(run_command(run + " --param k2=3e7 2>/dev/null", &out) == 0);  // the nominal value, written out
  CHECK_THAT(out, Catch::Contains("\"reference\": \"IVP Test Set"));
  REQUIRE(run_command(daekit::test::daekit_binary() + " info rober --param k1=0.05 2>&1", &out) == 0);
  CHECK_THAT(out, Catch::Contains("reference   none for these parameters"));
}

TEST_CASE("an initial value given with --y0 replaces the problem's",
          "[cli][parameters]") {
  const auto file = std::filesystem::temp_directory_path() / ("daekit-y0-" + std::to_string(::getpid()) + ".csv");
  std::string out;
  // y' = -k y + c from y(0) = 3 (the problem's own is 1): c/k + (3 - c/k) e^{-k t} at t = 2.
  REQUIRE(run_command(daekit_with_fixture("run --problem parametric_decay --solver bdf --rtol 1e-11 --atol 1e-13"
                                          " --y0 y1=3 --output " + file.string()),
                      &out) == 0);
  CHECK(std::abs(last_value(file) - (0.5 / 1.5 + (3 - 0.5 / 1.5) * std::exp(-3.0))) < 1e-8);
  std::filesystem::remove(file);
  CHECK(run_command(daekit_with_fixture("run --problem parametric_decay --solver bdf --y0 z=3"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("--y0: problem 'parametric_decay' has no component 'z'"));
  CHECK(run_command(daekit_with_fixture("run --problem parametric_decay --solver bdf --y0 y1=inf"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("not a finite number"));
  CHECK(run_command(daekit_with_fixture("run --problem parametric_decay --solver bdf --y0 y1"), &out) == 2);
}
