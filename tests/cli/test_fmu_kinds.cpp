// The kinds of FMU beyond states and events: without continuous states (time moved
// through their events, completed steps and output points), with FMI 3.0 array states,
// and driven by input signals from a CSV file, as the command's users meet them: test
// FMUs built at build time (tests/fmu: stair, state_space, feedthrough, integrator),
// every solver that handles events, outputs against what the models compute in closed
// form, and each kind of bad input file refused by name.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

namespace fs = std::filesystem;
using daekit::test::run_command;

namespace {

std::string fmu(const std::string& name) { return daekit::test::fmu_dir() + "/" + name + ".fmu"; }
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }

struct Folder {
  fs::path path = fs::temp_directory_path() / ("daekit-fmu-inputs-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

// The rows of an --output CSV: each a vector of its numbers (the last is the event mark).
std::vector<std::vector<double>> rows_of(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) row.push_back(std::stod(field));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("an FMU without continuous states runs in every solver: time events, outputs, termination",
          "[fmu][events][output]") {
  const Folder dir;
  const fs::path csv = dir.path / "stair.csv";
  for (const char* name : {"stair_fmi2", "stair_fmi3"})
    for (const auto& solver : daekit::test::event_solvers()) {
      INFO(name << " with " << solver);
      std::string out;
      // The counter steps up at t = 1, 2, ...: at every output point off the events it is
      // floor(t) + 1, whatever the solver's steps.
      REQUIRE(run_command(daekit_cmd("run --problem fmu --param file=" + fmu(name) + " --solver " + solver +
                                     " --output " + csv.string() + " --output-vars counter --report json 2>/dev/null"),
                          &out) == 0);
      CHECK(nlohmann::json::parse(out).at("status") == "success");
      int points = 0, events = 0;
      for (const auto& row : rows_of(csv)) {
        const double t = row[0], counter = row[1], mark = row[2];
        if (mark == 1) ++events;
        if (mark != 0 || std::abs(t - std::round(t)) < 1e-9) continue;
        CHECK(counter == std::floor(t) + 1);
        ++points;
      }
      CHECK(points == 40);  // the stepSize 0.2 grid on [0, 10] less its 11 whole times
      CHECK(events == 9);   // t = 1, ..., 9 (the one at t = 10 is after the end)
      // Asked to stop: the run ends at the event, with the counter where it was.
      REQUIRE(run_command(daekit_cmd("run --problem fmu --param file=" + fmu(name) + " --param last=4 --solver " +
                                     solver + " --output " + csv.string() + " --output-vars counter --report json 2>/dev/null"),
                          &out) == 0);
      const auto report = nlohmann::json::parse(out);
      CHECK(report.at("status") == "stopped_by_event");
      CHECK(report.at("t") == 4.0);
      CHECK(rows_of(csv).back()[1] == 4);
    }
  // It is described as it is: one placeholder component, outputs by name.
  std::string out;
  REQUIRE(run_command(daekit_cmd("info fmu --param file=" + fmu("stair_fmi3")), &out) == 0);
  CHECK_THAT(out, Catch::Contains("_dummy") && Catch::Contains("counter"));
}

TEST_CASE("an FMI 3.0 FMU with array states and outputs runs in every solver, element by element",
          "[fmu][output]") {
  const Folder dir;
  const fs::path csv = dir.path / "x.csv";
  // x' = A x, A = [-1 1 0; 0 -2 1; 0 0 -3], x(0) = (1, 1, 1) (tests/fmu/models/state_space.c).
  auto exact = [](int i, double t) {
    const double a = std::exp(-t), b = std::exp(-2 * t), c = std::exp(-3 * t);
    return i == 0 ? 2.5 * a - 2 * b + 0.5 * c : i == 1 ? 2 * b - c : c;
  };
  for (const auto& solver : daekit::test::event_solvers()) {
    INFO(solver);
    std::string out;
    REQUIRE(run_command(daekit_cmd("run --problem fmu --param file=" + fmu("state_space_fmi3") + " --solver " + solver +
                                   " --rtol 1e-9 --atol 1e-11 --output " + csv.string() +
                                   " --output-vars 'x[1],x[2],x[3],y[1],y[2],y[3],der(x)[3]'"),
                        &out) == 0);
    const auto rows = rows_of(csv);
    CHECK(rows.size() == 5);  // the stepSize 0.5 grid on [0, 2]
    for (const auto& row : rows) {
      for (int i = 0; i < 3; ++i) {
        CHECK(std::abs(row[1 + i] - exact(i, row[0])) < 1e-6);
        CHECK(row[4 + i] == row[1 + i]);  // y = x, read as an array output
      }
      CHECK(std::abs(row[7] + 3 * row[3]) < 1e-12);  // der(x)[3] = -3 x[3]
    }
  }
  std::string out;
  REQUIRE(run_command(daekit_cmd("info fmu --param file=" + fmu("state_space_fmi3")), &out) == 0);
  CHECK_THAT(out, Catch::Contains("x[3]") && Catch::Contains("A[2,3]"));
  // Arrays are not set by name; asking for directional derivatives per element is refused.
  CHECK(run_command(daekit_cmd("run --problem fmu --param file=" + fmu("state_space_fmi3") +
                               " --param A=1 --solver radau5 2>&1"),
                    &out) == 2);
  CHECK_THAT(out, Catch::Contains("cannot set 'A': it is an array"));
}

TEST_CASE("input signals from a CSV file: continuous inputs linear, discrete ones stepped at time events",
          "[fmu][events][output]") {
  const Folder dir;
  // A ramp 0 -> 1 on [0, 1], a jump at t = 1 of every input, a ramp 3 -> 2 -> 1 after;
  // the discrete inputs change again at t = 1.5; a boolean as true/false and as 1/0.
  const std::string signals = dir.write("signals.csv",
                                        "time,real_continuous_input,real_discrete_input,int_input,bool_input\n"
                                        "0,0,0,0,false\n1,1,0,0,false\n1,3,2,5,true\n1.5,2,-1,7,0\n2,1,-1,7,0\n");
  const fs::path csv = dir.path / "out.csv";
  for (const char* name : {"feedthrough_fmi2", "feedthrough_fmi3"})
    for (const char* solver : {"cvode", "radau5", "rodas5p", "bdf", "ida"}) {
      INFO(name << " with " << solver);
      std::string out;
      REQUIRE(run_command(daekit_cmd("run --problem fmu --param file=" + fmu(name) + " --param input=" + signals +
                                     " --solver " + solver + " --output " + csv.string() +
                                     " --output-vars real_continuous_output,real_discrete_output,int_output,bool_output"),
                          &out) == 0);
      int points = 0;
      for (const auto& row : rows_of(csv)) {
        const double t = row[0];
        if (row[5] != 0 || std::abs(t - 1.0) < 1e-12 || std::abs(t - 1.5) < 1e-12) continue;
        const double ramp = t < 1 ? t : 3 - 2 * (t - 1);
        CHECK(std::abs(row[1] - ramp) < 1e-12);
        CHECK(row[2] == (t < 1 ? 0 : t < 1.5 ? 2 : -1));
        CHECK(row[3] == (t < 1 ? 0 : t < 1.5 ? 5 : 7));
        CHECK(row[4] == (t < 1 ? 0 : t < 1.5 ? 1 : 0));
        ++points;
      }
      CHECK(points == 19);  // the stepSize 0.1 grid on [0, 2] less t = 1 and 1.5
      // Each jump is an event, its two limits written: the left the old values, the right the new.
      CHECK_THAT(out, Catch::Contains("event    t=1  time event") && Catch::Contains("event    t=1.5  time event"));
      bool left = false, right = false;
      for (const auto& row : rows_of(csv))
        if (row[0] == 1.0 && row[5] == 1) left = row[1] == 1 && row[2] == 0 && row[3] == 0 && row[4] == 0;
        else if (row[0] == 1.0 && row[5] == 2) right = row[1] == 3 && row[2] == 2 && row[3] == 5 && row[4] == 1;
      CHECK(left);
      CHECK(right);
    }
}

TEST_CASE("an input integrated by the FMU's state follows the closed form through the jumps and kinks",
          "[fmu][events]") {
  const Folder dir;
  // x' = gain u, u = 2t on [0, 1), t - 2 after its jump at t = 1, held at 1 after t = 3;
  // gain 1, then 3 from t = 2: x = t^2, 1 + ((t - 2)^2 - 1)/2, 0.5 + 1.5 (t - 2)^2,
  // 2 + 3 (t - 3).
  const std::string signals = dir.write("u.csv", "time,u,gain\n0,0,1\n1,2,1\n1,-1,1\n2,0,3\n3,1,3\n");
  const std::vector<std::pair<double, double>> exact = {{0.5, 0.25}, {1.5, 0.625}, {2.5, 0.875}, {3.5, 3.5}, {4, 5}};
  const fs::path csv = dir.path / "x.csv";
  for (const auto& solver : daekit::test::event_solvers()) {
    INFO(solver);
    std::string out;
    REQUIRE(run_command(daekit_cmd("run --problem fmu --param file=" + fmu("integrator_fmi2") + " --param input=" +
                                   signals + " --solver " + solver +
                                   " --rtol 1e-8 --atol 1e-10 --saveat 0.5,1.5,2.5,3.5,4 --output " + csv.string()),
                        &out) == 0);
    std::size_t k = 0;
    for (const auto& row : rows_of(csv)) {
      if (row[2] != 0) continue;
      REQUIRE(k < exact.size());
      CHECK(row[0] == exact[k].first);
      // A kink at t = 3 is stepped across (it is not an event): the tolerance, not rounding.
      CHECK(std::abs(row[1] - exact[k].second) < 2e-6 * (1 + exact[k].second));
      ++k;
    }
    CHECK(k == exact.size());
  }
  // The kink at t = 3 is a breakpoint; the jump at t = 1 and the gain's step at t = 2 are
  // time events. A long file's breakpoints are listed by their first few.
  std::string out;
  REQUIRE(run_command(daekit_cmd("info fmu --param file=" + fmu("integrator_fmi2") + " --param input=" + signals), &out) ==
          0);
  CHECK_THAT(out, Catch::Contains("breakpoints 3\n"));
  std::string many = "time,u,gain\n";
  for (int row = 0; row < 400; ++row) many += std::to_string(0.01 * row) + "," + std::to_string(0.02 * row) + ",1\n";
  REQUIRE(run_command(daekit_cmd("info fmu --param file=" + fmu("integrator_fmi2") +
                                 " --param input=" + dir.write("many.csv", many)),
                      &out) == 0);
  CHECK_THAT(out, Catch::Contains(" ... (399 in all)"));
}

TEST_CASE("bad input files are refused by name, before the run", "[fmu][bad-input]") {
  const Folder dir;
  const std::string header = "time,real_continuous_input,int_input\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "is empty"},
      {header, "has a header but no rows"},
      {"t_x,real_continuous_input\n0,1\n", "the first column must be the time"},
      {"time\n0\n", "no input columns"},
      {"time,real_continous_input\n0,1\n", "has no input 'real_continous_input' (closest: real_continuous_input"},
      {"time,real_continuous_output\n0,1\n", "'real_continuous_output' is not an input of the model"},
      {"time,int_input,int_input\n0,1,1\n", "the input 'int_input' has two columns"},
      {header + "0,1,2\n1,1\n", ":3: 2 fields, the header has 3"},
      {header + "0,1,2\nx,1,2\n", ":3: the time 'x' is not a finite number"},
      {header + "0,1,2\nnan,1,2\n", "the time 'nan' is not a finite number"},
      {header + "1,1,2\n0.5,1,2\n", "comes before the row above it"},
      {header + "0,fast,2\n", "'real_continuous_input' is a real variable; 'fast' is not a finite number"},
      {header + "0,1,2.5\n", "'int_input' is an integer variable; '2.5' is not a 32-bit integer"},
      {"time,bool_input\n0,yes\n", "give true or false (1 or 0), not 'yes'"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    const std::string file = dir.write("bad.csv", text);
    std::string out;
    CHECK(run_command(daekit_cmd("run --problem fmu --param file=" + fmu("feedthrough_fmi2") + " --param input=" + file +
                                 " --solver radau5 2>&1"),
                      &out) == 2);
    CHECK_THAT(out, Catch::Contains(message));
  }
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem fmu --param file=" + fmu("feedthrough_fmi2") + " --param input=" +
                               (dir.path / "missing.csv").string() + " --solver radau5 2>&1"),
                    &out) == 2);
  CHECK_THAT(out, Catch::Contains("cannot read the input file"));
  const std::string good = dir.write("good.csv", header + "0,1,2\n");
  CHECK(run_command(daekit_cmd("run --problem fmu --param file=" + fmu("feedthrough_fmi2") + " --param input=" + good +
                               " --param int_input=3 --solver radau5 2>&1"),
                    &out) == 2);
  CHECK_THAT(out, Catch::Contains("the input 'int_input' is given twice"));
}

TEST_CASE("seeded random input files: an answer or a refusal, never a crash or hang", "[fmu][bad-input][fuzz]") {
  const char* env_seed = std::getenv("DAEKIT_FUZZ_SEED");
  const unsigned seed = env_seed ? static_cast<unsigned>(std::strtoul(env_seed, nullptr, 10)) : 20261206u;
  std::mt19937 engine(seed);
  const Folder dir;
  const std::string valid =
      "time,real_continuous_input,real_discrete_input,int_input,bool_input\n0,0,0,0,false\n1,1,0,0,false\n"
      "1,3,2,5,true\n1.5,2,-1,7,0\n2,1,-1,7,0\n";
  const std::string alphabet = "0123456789.,-+eE\n\"x tinfa";
  const int count = daekit::test::fuzz_cases(30);
  for (int k = 0; k < count; ++k) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(engine() % 6);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = engine() % text.size();
      switch (engine() % 3) {
        case 0: text[at] = alphabet[engine() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + engine() % 8); break;
        default: text.insert(at, text.substr(engine() % text.size(), 1 + engine() % 20)); break;
      }
    }
    const std::string file = dir.write("fuzz.csv", text);
    std::string out;
    const int code = run_command(daekit_cmd("run --problem fmu --param file=" + fmu("feedthrough_fmi2") +
                                            " --param input=" + file + " --solver radau5 --timeout 20 2>&1"),
                                 &out);
    INFO("seed " << seed << ", case " << k << ":\n" << text << "\n" << out.substr(0, 400));
    CHECK(code >= 0);
    CHECK(code < 3);  // an answer, a failed run or a refusal: never a signal
    CHECK_THAT(out, !Catch::Contains("status     crashed") && !Catch::Contains("status     timeout"));
  }
}
