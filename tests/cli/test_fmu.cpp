// FMUs as problems (problems/fmu): the test FMUs of tests/fmu against their native twins
// and closed forms for every solver that handles events, FMI 2.0 and 3.0; the model's
// answers to completedIntegratorStep; parameters by name; and every kind of bad FMU.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness.hpp"

namespace fs = std::filesystem;
using daekit::test::run_command;

namespace {

std::string fmu(const std::string& name) { return daekit::test::fmu_dir() + "/" + name + ".fmu"; }
std::string bad_fmu(const std::string& name) { return daekit::test::fmu_dir() + "/bad/" + name + ".fmu"; }
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }
// stdout alone (run_command merges stderr into its output); built by appending, which
// keeps gcc 12's -Wrestrict false positive on "(" + string away.
std::string quiet(const std::string& args) {
  std::string s = "(";
  s += daekit_cmd(args);
  s += " 2>/dev/null)";
  return s;
}

daekit::test::RunResult run_fmu(const std::string& file, const std::string& solver, double rtol,
                                std::map<std::string, std::string> params = {}) {
  daekit::test::RunSpec spec = daekit::test::spec_for("fmu", solver, rtol, rtol);
  spec.params = std::move(params);
  spec.params["file"] = file;
  return daekit::test::run(spec);
}

// A CSV file's header and rows of numbers.
std::pair<std::string, std::vector<std::vector<double>>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) row.push_back(std::stod(field));
    rows.push_back(row);
  }
  return {header, rows};
}

double relative_gap(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return ((a - b).array().abs() / (1.0 + b.array().abs())).maxCoeff();
}

}  // namespace

TEST_CASE("van der Pol as an FMU (FMI 2.0 and 3.0) agrees with the native vdpol for every solver",
          "[fmu]") {
  const auto solvers = daekit::test::event_solvers();
  REQUIRE(solvers.size() >= 16);
  for (const auto& solver : solvers) {
    // ros3p's order-1 estimate needs far more steps: a looser tolerance keeps it quick.
    const double rtol = solver == "ros3p" ? 1e-4 : 1e-6;
    const auto native = daekit::test::run(daekit::test::spec_for("vdpol", solver, rtol, rtol));
    REQUIRE(native.status() == daekit::Status::success);
    for (const char* version : {"van_der_pol_fmi2", "van_der_pol_fmi3"}) {
      INFO(solver << " " << version);
      const auto r = run_fmu(fmu(version), solver, rtol);
      REQUIRE(r.status() == daekit::Status::success);
      // The same model and Jacobian: the same answer up to rounding in the step sequence.
      CHECK(relative_gap(r.y_end(), native.y_end()) < 1e-3 * rtol / 1e-6);
      CHECK(r.stats().steps == Approx(native.stats().steps).epsilon(0.1));
    }
  }
}

TEST_CASE("an FMU whose directional derivatives are wrong is found at run time: a warning, then differences",
          "[fmu][derivatives]") {
  // As the Reference FMU Roberts (FMI 3.0) whose derivatives say 0.04 where differences
  // give 90.97: dy2'/dy2 off by 1e-3. Before the check, rodas5p took 3x the steps.
  for (const char* solver : {"rodas5p", "radau5", "bdf", "cvode", "ida"}) {
    INFO(solver);
    const auto right = run_fmu(fmu("van_der_pol_fmi3"), solver, 1e-6);
    const auto wrong = run_fmu(fmu("van_der_pol_wrong_jacobian_fmi3"), solver, 1e-6);
    INFO(wrong.message());
    REQUIRE(right.status() == daekit::Status::success);
    REQUIRE(wrong.status() == daekit::Status::success);
    CHECK(right.stats().nderivative_mismatches == 0);
    CHECK(wrong.stats().nderivative_mismatches == 1);
    CHECK(wrong.message().find("row 2, column 2") != std::string::npos);
    CHECK(wrong.stats().jacobian_used == DK_JACOBIAN_FINITE_DIFFERENCE);
    CHECK(relative_gap(wrong.y_end(), right.y_end()) < 1e-3);
    CHECK(wrong.stats().steps <= 1.2 * static_cast<double>(right.stats().steps) + 5);
  }
  // The report says so too.
  std::string out;
  REQUIRE(run_command(quiet("run --problem fmu --param file=" + fmu("van_der_pol_wrong_jacobian_fmi3") +
                            " --solver rodas5p --report json"),
                      &out) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["stats"]["nderivative_mismatches"] == 1);
  CHECK(j["message"].get<std::string>().find("warning: the supplied Jacobian disagrees") != std::string::npos);
}

TEST_CASE("the bouncing ball as an FMU bounces at the closed-form times for every solver", "[fmu][events]") {
  // t_1 = T, t_(k+1) = t_k + 2 e^k T with T = sqrt(2 h0 / g): the bounces before t = 11.
  const double e = 0.8, fall = std::sqrt(2.0 * 10.0 / 9.81), tend = 11.0;
  std::vector<double> exact{fall};
  for (int k = 1; exact.back() + 2.0 * std::pow(e, k) * fall < tend; ++k)
    exact.push_back(exact.back() + 2.0 * std::pow(e, k) * fall);
  REQUIRE(exact.size() == 9);
  for (const auto& solver : daekit::test::event_solvers()) {
    const double rtol = solver == "ros3p" ? 1e-6 : 1e-9;
    for (const char* version : {"bouncing_ball_fmi2", "bouncing_ball_fmi3"}) {
      INFO(solver << " " << version);
      daekit::test::RunSpec spec = daekit::test::spec_for("fmu", solver, rtol, rtol);
      spec.params = {{"file", fmu(version)}, {"tend", "11"}};
      const auto r = daekit::test::run(spec);
      REQUIRE(r.status() == daekit::Status::success);
      REQUIRE(r.events.size() == exact.size());
      for (std::size_t k = 0; k < r.events.size(); ++k) {
        CHECK(r.events[k].index == 0);
        CHECK(r.events[k].direction == -1);
        CHECK(std::abs(r.events[k].t - exact[k]) < 1e3 * rtol * exact[k]);
      }
    }
  }
}

TEST_CASE("the feed reactor FMU's time event and states agree with the native twin's closed form", "[fmu][events]") {
  for (const auto& solver : daekit::test::event_solvers()) {
    INFO(solver);
    const double rtol = solver == "ros3p" ? 1e-5 : 1e-7;
    const auto native = daekit::test::run(daekit::test::spec_for("feed_reactor", solver, rtol, rtol));
    REQUIRE(native.status() == daekit::Status::success);
    const auto r = run_fmu(fmu("feed_reactor_fmi2"), solver, rtol);
    REQUIRE(r.status() == daekit::Status::success);
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].t == 10.0);  // landed on exactly
    CHECK(r.events[0].index == -1);
    // The exact answer at t = 20 (the native problem's closed form).
    std::vector<double> reference;
    REQUIRE(native.problem->reference(reference));
    const Eigen::VectorXd exact = Eigen::Map<const Eigen::VectorXd>(reference.data(), 3);
    CHECK(relative_gap(r.y_end(), exact) < 1e3 * rtol);
    CHECK(relative_gap(native.y_end(), exact) < 1e3 * rtol);
  }
}

TEST_CASE("completedIntegratorStep's answers end the run or start an event", "[fmu][events]") {
  // terminateSimulation once c passes 0.5 (c = 1 - e^-t - b crosses it near t = 0.69).
  for (const auto& solver : daekit::test::event_solvers()) {
    INFO(solver);
    const auto stopped = run_fmu(fmu("feed_reactor_fmi2"), solver, 1e-6, {{"stop_above", "0.5"}});
    CHECK(stopped.status() == daekit::Status::stopped_by_event);
    CHECK(stopped.result.t_reached > 0.69);
    CHECK(stopped.result.t_reached < 3.0);
    CHECK(stopped.y_end()[2] > 0.5);
    // enterEventMode once c passes 1.5: an event at the end of that step switches the feed
    // off, so A decays from then on instead of approaching feed / k1 = 2.
    const auto switched = run_fmu(fmu("feed_reactor_fmi2"), solver, 1e-6, {{"feed_off_above", "1.5"}});
    REQUIRE(switched.status() == daekit::Status::success);
    REQUIRE(switched.events.size() == 2);
    CHECK(switched.events[0].t == 10.0);
    CHECK(switched.events[1].t > 10.0);
    CHECK(switched.y_end()[0] < 0.1);
  }
  // The report names the kinds: the time event, then the step event.
  std::string out;
  REQUIRE(run_command(quiet("run --problem fmu --param file=" + fmu("feed_reactor_fmi2") +
                            " --param feed_off_above=1.5 --solver rodas5p --report json"),
                      &out) == 0);
  const auto j = nlohmann::json::parse(out);
  REQUIRE(j["events"].size() == 2);
  CHECK(j["events"][0]["kind"] == "time");
  CHECK(j["events"][1]["kind"] == "step");
}

TEST_CASE("FMU parameters and start values by name, checked against the model description", "[fmu]") {
  // e = 0.5: the second bounce comes after T (1 + 2 e).
  daekit::test::RunSpec spec = daekit::test::spec_for("fmu", "radau5", 1e-9, 1e-9);
  spec.params = {{"file", fmu("bouncing_ball_fmi2")}, {"e", "0.5"}, {"h", "5"}, {"tend", "3"}};
  const auto r = daekit::test::run(spec);
  REQUIRE(r.status() == daekit::Status::success);
  REQUIRE(r.events.size() >= 2);
  const double fall = std::sqrt(2.0 * 5.0 / 9.81);
  CHECK(r.events[0].t == Approx(fall).epsilon(1e-7));
  CHECK(r.events[1].t == Approx(fall * 2.0).epsilon(1e-7));

  std::string out;
  const std::string base = "run --problem fmu --solver radau5 --param file=" + fmu("bouncing_ball_fmi2");
  CHECK(run_command(daekit_cmd(base + " --param gg=1"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("has no variable 'gg'") && Catch::Contains("closest: g"));
  CHECK(run_command(daekit_cmd(base + " --param e=fast"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("'fast' is not a finite number"));
  CHECK(run_command(daekit_cmd(base + " --param 'der(h)=1'"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("cannot set 'der(h)'"));
  const std::string vdp = "run --problem fmu --solver radau5 --param file=" + fmu("van_der_pol_fmi2");
  CHECK(run_command(daekit_cmd(vdp + " --param two=3"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("cannot set 'two': it is a constant"));
  const std::string feed = "run --problem fmu --solver radau5 --param file=" + fmu("feed_reactor_fmi2");
  CHECK(run_command(daekit_cmd(feed + " --param feed_on=1"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("the model calculates its initial value"));
  CHECK(run_command(daekit_cmd(vdp + " --param jacobian=sometimes"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("jacobian must be auto, directional or differences"));
  CHECK(run_command(daekit_cmd(feed + " --param jacobian=directional"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("provides no directional derivatives"));
}

TEST_CASE("an FMU that fails, and one that logs: clear statuses, log lines with --verbose", "[fmu]") {
  std::string out;
  const std::string vdp = "run --problem fmu --solver rodas5p --param file=" + fmu("van_der_pol_fmi2");
  CHECK(run_command(daekit_cmd(vdp + " --param fail_after=1"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("evaluation_failure"));
  CHECK_THAT(out, Catch::Contains("fmi2GetDerivatives returned fmi2Error"));
  CHECK_THAT(out, Catch::Contains("gives up beyond fail_after"));
  // The FMU's own notes appear with --verbose only, named by the instance.
  REQUIRE(run_command(daekit_cmd(vdp + " --verbose"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("fmu 'VanDerPol' [logEvents]: initialised"));
  REQUIRE(run_command(daekit_cmd(vdp), &out) == 0);
  CHECK_THAT(out, !Catch::Contains("[logEvents]"));
  // A guid the binary does not know: it refuses to instantiate, and says why.
  CHECK(run_command(daekit_cmd("run --problem fmu --solver rodas5p --param file=" + bad_fmu("wrong_guid")), &out) != 0);
  CHECK_THAT(out, Catch::Contains("refused to instantiate") && Catch::Contains("does not match"));
}

TEST_CASE("bad FMUs: each a clear message and a non-zero exit, nothing left behind", "[fmu][bad-input]") {
  const fs::path tmp = fs::temp_directory_path() / ("daekit-fmu-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp / "inner");
  const std::string env = "TMPDIR=" + (tmp / "inner").string() + " ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {bad_fmu("not_a_zip"), "not a zip archive"},
      {bad_fmu("no_description"), "has no modelDescription.xml at its root: not an FMU"},
      {bad_fmu("cosim_only"), "is for co-simulation only"},
      {bad_fmu("wrong_platform"), "has no binary for this platform (binaries/linux64/van_der_pol_fmi2.so)"},
      {bad_fmu("traversal"), "unsafe entry name '../daekit_escaped.txt'"},
      {bad_fmu("fmi1"), "FMI version '1.0' is not supported"},
      {bad_fmu("bad_xml"), "not well-formed XML"},
      {(tmp / "missing.fmu").string(), "missing.fmu"},
      {bad_fmu("array_sizes"), "the state 'x' has 3 elements, its derivative 'der(x)' 2"},
      {bad_fmu("array_dimension"), "the array 'x''s Dimension has neither a start nor the valueReference of a variable"},
      {bad_fmu("missing_function"), "does not export fmi3InstantiateModelExchange"},
      {bad_fmu("not_loading"), "does not load"},
      {bad_fmu("many_indicators"), "numberOfEventIndicators=\"1000000000000\" is not a whole number from 0 to"},
      {bad_fmu("negative_indicators"), "numberOfEventIndicators=\"-1\" is not a whole number"},
      {bad_fmu("negative_reference"), "variable 'eps': valueReference=\"-1\" is not a whole number"},
      {bad_fmu("own_state"), "the derivative 'der(y1)' names itself as its state"},
      {bad_fmu("state_twice"), "the state 'y1' is listed twice"},
  };
  for (const auto& [file, expected] : cases) {
    INFO(file);
    std::string out;
    CHECK(run_command(env + daekit_cmd("run --problem fmu --solver radau5 --param file=" + file), &out) != 0);
    CHECK_THAT(out, Catch::Contains(expected));
  }
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem fmu --solver radau5"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("--param file=Model.fmu"));
  // Nothing escaped the private folder, and every private folder was removed.
  CHECK_FALSE(fs::exists(tmp / "daekit_escaped.txt"));
  CHECK(fs::is_empty(tmp / "inner"));
  // A good run leaves nothing either.
  REQUIRE(run_command(env + daekit_cmd("run --problem fmu --solver radau5 --param file=" + fmu("bouncing_ball_fmi3")),
                      &out) == 0);
  CHECK(fs::is_empty(tmp / "inner"));
  fs::remove_all(tmp);
}

TEST_CASE("zip bombs and oversized FMUs are refused before a byte is written; the limit is documented and "
          "overridable", "[fmu][bad-input]") {
  const fs::path tmp = fs::temp_directory_path() / ("daekit-fmu-bomb-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const std::string env = "TMPDIR=" + tmp.string() + " ";
  std::string out;
  CHECK(run_command(env + daekit_cmd("run --problem fmu --solver radau5 --param file=" + bad_fmu("zip_bomb")), &out) != 0);
  CHECK_THAT(out, Catch::Contains("zeros.bin") && Catch::Contains("zip bomb"));
  CHECK(run_command(env + "DAEKIT_FMU_MAX_UNPACKED_MB=2 " +
                        daekit_cmd("run --problem fmu --solver radau5 --param file=" + bad_fmu("large")),
                    &out) != 0);
  CHECK_THAT(out, Catch::Contains("more than 2 MiB") && Catch::Contains("DAEKIT_FMU_MAX_UNPACKED_MB"));
  CHECK(run_command(env + daekit_cmd("run --problem fmu --solver radau5 --param file=" + bad_fmu("large")), &out) == 0);
  CHECK(run_command(env + "DAEKIT_FMU_MAX_UNPACKED_MB=lots " +
                        daekit_cmd("run --problem fmu --solver radau5 --param file=" + bad_fmu("large")),
                    &out) != 0);
  CHECK_THAT(out, Catch::Contains("DAEKIT_FMU_MAX_UNPACKED_MB='lots'"));
  CHECK(fs::is_empty(tmp));
  fs::remove_all(tmp);
}

TEST_CASE("an FMU's unpacked folder never outlives its process: killed at its time limit, crashed, or gone",
          "[fmu][isolation]") {
  const fs::path tmp = fs::temp_directory_path() / ("daekit-fmu-orphans-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const std::string env = "TMPDIR=" + tmp.string() + " ";
  // A run killed at its time limit: the parent removes what the child unpacked.
  std::string out;
  CHECK(run_command(env + daekit_cmd("run --problem fmu --solver rodas5p --rtol 1e-12 --tend 1e9 --max-steps 1000000000 --timeout 1 "
                                     "--param file=" + fmu("van_der_pol_fmi2")),
                    &out) != 0);
  CHECK_THAT(out, Catch::Contains("timeout"));
  CHECK(fs::is_empty(tmp));
  // One left by a process that is gone (a crash in --in-process, a power cut): the next
  // unpacking removes it; a live process's folder (ours, pid 1's) is left alone.
  fs::create_directories(tmp / "daekit-fmu-2147483646-abcdef" / "binaries");
  fs::create_directories(tmp / "daekit-fmu-1-abcdef");
  REQUIRE(run_command(env + daekit_cmd("run --problem fmu --solver radau5 --param file=" + fmu("bouncing_ball_fmi3")),
                      &out) == 0);
  CHECK_FALSE(fs::exists(tmp / "daekit-fmu-2147483646-abcdef"));
  CHECK(fs::exists(tmp / "daekit-fmu-1-abcdef"));
  fs::remove_all(tmp);
}

TEST_CASE("seeded random FMUs (hostile descriptions, damaged archives): an answer, never a crash, hang or leftover",
          "[fmu][bad-input][fuzz]") {
  const char* env_seed = std::getenv("DAEKIT_FUZZ_SEED");
  const unsigned seed = env_seed ? static_cast<unsigned>(std::strtoul(env_seed, nullptr, 10)) : 20261204u;
  const fs::path tmp = fs::temp_directory_path() / ("daekit-fmu-fuzz-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp / "inner");
  const std::string source = DAEKIT_SOURCE_DIR;
  std::string out;
  const int count = daekit::test::fuzz_cases(40);
  REQUIRE(run_command("python3 " + source + "/tests/fmu/fuzz_fmus.py " + std::to_string(seed) + " " +
                          std::to_string(count) + " " +
                          (tmp / "fmus").string() + " " + fmu("van_der_pol_fmi2"),
                      &out) == 0);
  const std::string env = "TMPDIR=" + (tmp / "inner").string() + " ";
  int answered = 0;
  for (const auto& entry : fs::directory_iterator(tmp / "fmus")) {
    const std::string file = entry.path().string();
    INFO("seed " << seed << ", " << file);
    for (const std::string& command : {"info fmu --timeout 20 --param file=" + file,
                                      "run --problem fmu --solver radau5 --timeout 20 --param file=" + file}) {
      const int code = run_command(env + daekit_cmd(command), &out);
      INFO(command << ": " << out.substr(0, 400));
      CHECK(code >= 0);
      CHECK(code < 3);  // 0 an answer, 1 a failed run, 2 a refusal: never a signal (>= 128)
      CHECK_THAT(out, !Catch::Contains("status     crashed") && !Catch::Contains("status     timeout"));
      ++answered;
    }
  }
  CHECK(answered == 2 * count);
  CHECK(fs::is_empty(tmp / "inner"));
  fs::remove_all(tmp);
}

TEST_CASE("a state's nominal value scales its default atol, and FMI 3.0 names the event indicators", "[fmu][events]") {
  // Robertson's y2 stays below 4e-5: held to atol = rtol = 1e-6 its event times are off by
  // percents; the descriptions give it a nominal of 1e-4 (FMI 3.0 on the variable, FMI 2.0
  // through its declared type), and the default atol follows, as FMPy takes it.
  auto report = [](const std::string& version, const std::string& settings) {
    std::string out;
    REQUIRE(run_command(quiet("run --problem fmu --param file=" + fmu("robertson_" + version) + " " + settings +
                              " --report json"),
                        &out) == 0);
    return nlohmann::json::parse(out);
  };
  auto event_times = [](const nlohmann::json& j) {
    std::vector<double> times;
    for (const auto& e : j["events"]) times.push_back(e["t"].get<double>());
    return times;
  };
  for (const char* version : {"fmi2", "fmi3"}) {
    INFO(version);
    const auto exact = event_times(report(version, "--solver radau5 --rtol 1e-11 --atol 1e-16"));
    REQUIRE(exact.size() == 2);  // y2 rises through 2e-5 near t = 5.6e-4, falls through it near 5.66
    for (const char* solver : {"cvode", "rodas5p", "bdf", "radau5"}) {
      INFO(solver);
      const auto j = report(version, std::string("--solver ") + solver + " --rtol 1e-6");
      CHECK(j["atol"] == nlohmann::json::array({1e-6, 1e-10, 1e-6}));
      const auto times = event_times(j);
      REQUIRE(times.size() == 2);
      for (std::size_t k = 0; k < 2; ++k) CHECK(std::abs(times[k] - exact[k]) < 1e-3 * exact[k]);
      CHECK(j["events"][0]["name"] == (std::string(version) == "fmi3" ? "y2_low" : "indicator 1"));
    }
    // The control: atol 1e-6 for every state put cvode's first event 6 % late (measured).
    const auto loose = event_times(report(version, "--solver cvode --rtol 1e-6 --atol 1e-6"));
    REQUIRE(loose.size() == 2);
    CHECK(std::abs(loose[0] - exact[0]) > 0.02 * exact[0]);
  }
}

namespace {
// A copy of a test FMU whose description has `from` replaced by `to`, packed as dir/broken.fmu.
fs::path edited_copy(const std::string& name, const fs::path& dir, const std::string& from, const std::string& to) {
  fs::create_directories(dir);
  std::string out;
  REQUIRE(run_command("cd " + dir.string() + " && cmake -E tar xf " + fmu(name), &out) == 0);
  std::string description;
  {
    std::ifstream in(dir / "modelDescription.xml");
    description.assign(std::istreambuf_iterator<char>(in), {});
  }
  REQUIRE(description.find(from) != std::string::npos);
  description.replace(description.find(from), from.size(), to);
  std::ofstream(dir / "modelDescription.xml") << description;
  const fs::path copy = dir / "broken.fmu";
  REQUIRE(run_command("cd " + dir.string() + " && cmake -E tar cf " + copy.string() +
                          " --format=zip modelDescription.xml binaries",
                      &out) == 0);
  return copy;
}
}  // namespace

TEST_CASE("a nominal or a stepSize that is not a positive number is refused by name", "[fmu][badinput]") {
  const fs::path dir = fs::temp_directory_path() / ("daekit-nominal-" + std::to_string(::getpid()));
  std::string out;
  const fs::path nominal = edited_copy("robertson_fmi3", dir / "nominal", "nominal=\"1e-4\"", "nominal=\"-1\"");
  CHECK(run_command(daekit_cmd("run --problem fmu --solver cvode --param file=" + nominal.string()), &out) != 0);
  CHECK_THAT(out, Catch::Contains("y2") && Catch::Contains("nominal '-1' is not a positive number"));
  const fs::path step = edited_copy("bouncing_ball_fmi3", dir / "step", "stepSize=\"0.5\"", "stepSize=\"0\"");
  CHECK(run_command(daekit_cmd("run --problem fmu --solver cvode --param file=" + step.string()), &out) != 0);
  CHECK_THAT(out, Catch::Contains("stepSize '0' is not a positive number"));
  fs::remove_all(dir);
}

TEST_CASE("an FMU's DefaultExperiment stepSize is the command's default output grid, as FMPy's", "[fmu][output]") {
  const fs::path dir = fs::temp_directory_path() / ("daekit-fmu-grid-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto times = [&](const std::string& name, const std::string& settings) {
    std::string out;
    const fs::path csv = dir / "out.csv";
    REQUIRE(run_command(daekit_cmd("run --problem fmu --solver radau5 --rtol 1e-8 --param file=" + fmu(name) + " " +
                                   settings + " --output " + csv.string()),
                        &out) == 0);
    // The output points' times; the rows at events (both limits, marked in the last
    // column `event`) are not output points.
    std::vector<double> t;
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    const bool marked = header.size() >= 6 && header.compare(header.size() - 6, 6, ",event") == 0;
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && (!marked || line.substr(line.rfind(',') + 1) == "0"))
        t.push_back(std::stod(line.substr(0, line.find(','))));
    return t;
  };
  // stepSize 0.5 on [0, 3]: seven points; the last point of a shorter span is its end.
  CHECK(times("bouncing_ball_fmi3", "") == std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0});
  CHECK(times("bouncing_ball_fmi3", "--tend 1.2") == std::vector<double>{0.0, 0.5, 1.0, 1.2});
  // What the user asks for wins; without a stepSize, the end alone.
  CHECK(times("bouncing_ball_fmi3", "--saveat 0.25") == std::vector<double>{0.25});
  CHECK(times("bouncing_ball_fmi3", "--every-step").size() > 7);
  CHECK(times("bouncing_ball_fmi2", "") == std::vector<double>{3.0});
  fs::remove_all(dir);
}

TEST_CASE("daekit info fmu explains its parameters; with a file it describes the model", "[fmu]") {
  std::string out;
  CHECK(run_command(daekit_cmd("info fmu"), &out) != 0);
  CHECK_THAT(out, Catch::Contains("--param file=Model.fmu") && Catch::Contains("jacobian="));
  REQUIRE(run_command(daekit_cmd("info fmu --param file=" + fmu("bouncing_ball_fmi3")), &out) == 0);
  CHECK_THAT(out, Catch::Contains("FMU 'BouncingBall' (FMI 3.0 model exchange"));
  CHECK_THAT(out, Catch::Contains("root 0 (h)"));  // FMI 3.0 names its event indicator: the variable h
}

TEST_CASE("output variables: an FMU's locals written as the points arrive, as its native twin computes them",
          "[fmu][output-vars]") {
  const fs::path tmp = fs::temp_directory_path() / ("daekit-output-vars-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  // a(t) in closed form: e^-t up to t_on = 10, then feed / k1 = 2 approached from a(10).
  auto a_exact = [](double t) { return t <= 10.0 ? std::exp(-t) : 2.0 + (std::exp(-10.0) - 2.0) * std::exp(-(t - 10.0)); };
  std::vector<std::vector<std::vector<double>>> tables;
  for (const std::string& problem : {std::string("--problem feed_reactor"),
                                     "--problem fmu --param file=" + fmu("feed_reactor_fmi2")}) {
    INFO(problem);
    const fs::path file = tmp / "points.csv";
    std::string out;
    REQUIRE(run_command(daekit_cmd("run " + problem +
                                   " --solver radauiia --rtol 1e-9 --atol 1e-12 --saveat 5,12,20 --output " +
                                   file.string() + " --output-vars 'c, feed_on,der(a)'"),
                        &out) == 0);
    const auto [header, rows] = read_csv(file);
    CHECK(header == "t,c,feed_on,der(a),event");
    int ordinary = 0;
    for (const auto& row : rows) {
      REQUIRE(row.size() == 5);
      const double t = row[0], feed_on = row[2], der_a = row[3], event = row[4];
      INFO("t = " << t << " event " << event);
      // The mode of each point: the left limit at the switch still without feed.
      const double expected_feed = event == 1.0 ? 0.0 : event == 2.0 ? 1.0 : t > 10.0 ? 1.0 : 0.0;
      CHECK(feed_on == expected_feed);
      CHECK(der_a == Approx(2.0 * expected_feed - a_exact(t)).margin(1e-7));
      ordinary += event == 0.0;
    }
    CHECK(ordinary == 3);
    tables.push_back(rows);
  }
  // The FMU's and the native problem's columns agree to the tolerance.
  REQUIRE(tables[0].size() == tables[1].size());
  for (std::size_t k = 0; k < tables[0].size(); ++k)
    for (std::size_t i = 0; i < 5; ++i) CHECK(tables[1][k][i] == Approx(tables[0][k][i]).margin(1e-7));

  // Names are checked before anything runs.
  std::string out;
  const std::string base = "run --problem fmu --param file=" + fmu("feed_reactor_fmi2") + " --solver rodas5p ";
  CHECK(run_command(daekit_cmd(base + "--output " + (tmp / "x.csv").string() + " --output-vars feed_onn"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("has no variable 'feed_onn'") && Catch::Contains("did you mean 'feed_on'"));
  CHECK(run_command(daekit_cmd(base + "--output-vars c"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("--output-vars needs --output FILE"));
  CHECK(run_command(daekit_cmd(base + "--output " + (tmp / "x.csv").string() + " --output-vars c,c"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("names 'c' twice"));
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --output " + (tmp / "x.csv").string() +
                               " --output-vars y1,speed"),
                    &out) == 2);
  CHECK_THAT(out, Catch::Contains("has no variable 'speed'") && Catch::Contains("no outputs besides its 2 components"));
  CHECK_FALSE(fs::exists(tmp / "x.csv"));
  // info lists what may be named.
  REQUIRE(run_command(quiet("info fmu --param file=" + fmu("feed_reactor_fmi2")), &out) == 0);
  CHECK_THAT(out, Catch::Contains("outputs     10 variables besides the components") && Catch::Contains("der(a),") &&
                      Catch::Contains("feed_on,"));
  fs::remove_all(tmp);
}

TEST_CASE("an FMU ensemble that varies a parameter and records it as an output keeps the CSV's column names apart",
          "[fmu][ensemble]") {
  // The feed reactor FMU's parameter `feed` is one of its outputs too.
  const fs::path out = fs::temp_directory_path() / ("daekit-fmu-ensemble-" + std::to_string(::getpid()));
  fs::remove_all(out);
  std::string log;
  REQUIRE(run_command(daekit_cmd("ensemble --problem fmu --param file=" + fmu("feed_reactor_fmi2") +
                                 " --solver radau5 --param-grid feed=1,3 --outputs a,feed --out " + out.string()),
                      &log) == 0);
  std::ifstream in(out / "members.csv");
  std::string header, row;
  std::getline(in, header);
  CHECK_THAT(header, Catch::StartsWith("member,grid_point,sample,status,feed,a,feed@tend,steps,"));
  // Both columns hold the value the member was given.
  std::getline(in, row);
  CHECK_THAT(row, Catch::StartsWith("0,0,0,success,1,") && Catch::Contains(",1,"));
  fs::remove_all(out);
}
