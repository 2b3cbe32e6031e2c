// The `daekit` command as users and scripts meet it: exit codes, messages, and
// the `--report json` keys that scripts rely on.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <thread>
#include <tuple>

#include "harness.hpp"

using daekit::test::run_command;

namespace {
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }
std::string fixture(const std::string& file) { return daekit::test::fixture_dir() + "/" + file; }
// "(command redirect)": run_command adds 2>&1, so a subshell decides what reaches the pipe.
std::string subshell(const std::string& command, const char* redirect) {
  std::string s = "(";
  s += command;
  s += ' ';
  s += redirect;
  s += ')';
  return s;
}
}  // namespace

TEST_CASE("daekit list shows the solvers and problems with their files", "[cli]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("list"), &out) == 0);
  for (const char* name : {"rodas5p", "fekete", "rober", "rober_dae", "rosenbrock.so", "fekete.so"})
    CHECK_THAT(out, Catch::Contains(name));
}

TEST_CASE("plugin options work before the command word too, and a missing command or value is said", "[cli]") {
  std::string out;
  const std::string models = fixture("fixture_models.so");
  REQUIRE(run_command(daekit_cmd("--plugin " + models + " list"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("fixture_models.so"));
  REQUIRE(run_command(daekit_cmd("--plugin=" + models + " --plugin-path " + daekit::test::plugin_dir() +
                                 " info --plugin-path " + daekit::test::plugin_dir() + " hires"),
                      &out) == 0);
  CHECK_THAT(out, Catch::Contains("hires"));
  CHECK(run_command(daekit_cmd("--plugin " + models), &out) == 2);
  CHECK_THAT(out, Catch::Contains("a command is needed after --plugin"));
  CHECK(run_command(daekit_cmd("list --plugin"), &out) == 2);
  CHECK(run_command(daekit_cmd("--plugin"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("--plugin needs a value"));
  CHECK(run_command(daekit_cmd("--plugin /no/such/file.so list"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("/no/such/file.so"));
}

TEST_CASE("daekit list shows every problem of the library and every solver", "[cli][problems]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("list"), &out) == 0);
  for (const char* name :
       {"hires", "pollu", "ringmod", "medakzo", "emep", "plei", "beam", "vdpol", "vdpolm", "orego", "e5", "rober",
        "chemakzo", "andrews", "transamp", "pump", "tba", "caraxis", "fekete", "crank", "water", "nand", "wheel",
        "crank17", "fekete3", "brusselator", "heat2d", "prothero_robinson", "pendulum_dae", "bdf", "ndf", "radau5", "radauiia", "rodas5p", "ida", "cvode"})
  {
    char entry[64];
    std::snprintf(entry, sizeof entry, "  %s ", name);
    CHECK_THAT(out, Catch::Contains(entry));
  }
}

TEST_CASE("daekit info crank shows its 24 components with names, index and the reference's provenance", "[cli][problems]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("info crank"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("n = 24") && Catch::Contains("MEBDFI") && Catch::Contains("phi1") &&
                      Catch::Contains("lambda3") && Catch::Contains("scored      10 of 24"));
  // One line per component: its number, name, kind, index.
  for (int i = 1; i <= 24; ++i) {
    char row[16];
    std::snprintf(row, sizeof row, "\n%5d  ", i);
    CHECK_THAT(out, Catch::Contains(row));
  }
}

TEST_CASE("daekit refuses a file that is not a plugin, naming it, without crashing", "[cli][abi]") {
  const std::string junk = std::filesystem::temp_directory_path() / "daekit-cli-junk.so";
  std::ofstream(junk) << "junk";
  std::string out;
  CHECK(run_command(daekit_cmd("list --plugin " + junk), &out) == 2);
  CHECK_THAT(out, Catch::Contains(junk) && Catch::Contains("not a shared library"));
  CHECK(run_command(daekit_cmd("list --plugin " + fixture("fixture_not_a_plugin.so")), &out) == 2);
  CHECK_THAT(out, Catch::Contains("fixture_not_a_plugin.so") && Catch::Contains("not a daekit plugin"));
  CHECK(run_command(daekit_cmd("list --plugin /no/such/file.so"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("/no/such/file.so") && Catch::Contains("no such file"));
}

TEST_CASE("daekit refuses a plugin built for another ABI major, saying what to do", "[cli][abi]") {
  std::string out;
  CHECK(run_command(daekit_cmd("list --plugin " + fixture("fixture_wrong_major.so")), &out) == 2);
  CHECK_THAT(out, Catch::Contains("fixture_wrong_major.so") && Catch::Contains("ABI 2") && Catch::Contains("rebuild"));
}

TEST_CASE("unknown plugin names list the names that exist", "[cli]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem fekete --solver nosuch"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("unknown solver 'nosuch'") && Catch::Contains("rodas5p"));
  CHECK(run_command(daekit_cmd("run --problem nosuch --solver rodas5p"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("unknown problem 'nosuch'") && Catch::Contains("fekete") &&
                      Catch::Contains("rober_dae"));
  CHECK(run_command(daekit_cmd("info nosuch"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("unknown plugin 'nosuch'"));
}

TEST_CASE("invalid tolerances and options end with one clear line and exit 2", "[cli][badinput]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --rtol -1"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("rtol must be finite and >= 0"));
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --solver-opt nonsense=1"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("no option 'nonsense'"));
  CHECK(run_command(daekit_cmd("run --problem fekete --solver rodas5p --param N=x"), &out) == 2);
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --bogus"), &out) == 2);
  CHECK(run_command(daekit_cmd("frobnicate"), &out) == 2);
}

TEST_CASE("a failed solve exits 1 and says why", "[cli][badinput]") {
  std::string out;
  const std::string args = "run --plugin-path " + daekit::test::fixture_dir() + " --problem nan_model --solver rodas5p";
  CHECK(run_command(daekit_cmd(args), &out) == 1);
  CHECK_THAT(out, Catch::Contains("evaluation_failure") && Catch::Contains("non-finite"));
}

TEST_CASE("daekit run on Fekete at 1e-8 reports success and scd >= 7 as JSON", "[cli][dae][slow]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("run --problem fekete --solver rodas5p --rtol 1e-8 --atol 1e-8 --report json"),
                      &out) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["status"] == "success");
  CHECK(j["t"].get<double>() == 1000.0);
  CHECK(j["scd"].get<double>() >= 7.0);
  CHECK(j["mescd"].is_number());
  CHECK(j["wall_s"].get<double>() > 0.0);
  CHECK(j["message"].is_string());
  for (const char* key : {"steps", "accepted", "rejected", "nfev", "njac", "nlu"}) CHECK(j["stats"][key].is_number());
}

TEST_CASE("daekit run writes the trajectory as CSV and prints a readable summary", "[cli][output]") {
  const std::string csv = std::filesystem::temp_directory_path() / "daekit-cli-rober.csv";
  std::string out;
  REQUIRE(run_command(daekit_cmd("run --problem rober --solver rodas5p --every-step --output " + csv), &out) == 0);
  CHECK_THAT(out, Catch::Contains("status     success") && Catch::Contains("scd"));
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  CHECK(header == "t,y1,y2,y3");
}

TEST_CASE("daekit info describes a problem's components and a solver's options", "[cli]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("info fekete"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("n = 160") && Catch::Contains("lambda1") && Catch::Contains("algebraic") &&
                      Catch::Contains("RADAU5"));
  REQUIRE(run_command(daekit_cmd("info rodas5p"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("controller") && Catch::Contains("DAE index   up to 2"));
  // Which solvers take linear_solver=krylov.
  for (const char* solver : {"rodas5p", "bdf", "cvode", "ida", "radau5"}) {
    REQUIRE(run_command(daekit_cmd(std::string("info ") + solver), &out) == 0);
    CHECK_THAT(out, Catch::Contains("krylov      yes"));
  }
  CHECK_THAT(out, !Catch::Contains("arnoldi"));  // ida's: only a Rosenbrock-Krylov method has it
  REQUIRE(run_command(daekit_cmd("info rok4a"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("linear_solver=arnoldi") && Catch::Contains("arnoldi_dim"));
  for (const char* solver : {"radauiia", "petsc"}) {  // petsc: PETSc's KSP, through its own options
    REQUIRE(run_command(daekit_cmd(std::string("info ") + solver), &out) == 0);
    CHECK_THAT(out, Catch::Contains("krylov      no"));
  }
  REQUIRE(run_command(daekit_cmd("--version"), &out) == 0);
  REQUIRE(run_command(daekit_cmd("run --help"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("--rtol"));
}

namespace {
// One problem's section of a `daekit check` report: from its "problem 'name'" line to its verdict.
std::string check_section(const std::string& report, const std::string& name) {
  const auto begin = report.find("problem '" + name + "'");
  if (begin == std::string::npos) return "";
  const auto end = report.find("  => ", begin);
  return report.substr(begin, report.find('\n', end) - begin);
}
}  // namespace

TEST_CASE("daekit check fails every broken model, each for its defect, and passes the correct one", "[cli][check]") {
  std::string out;
  CHECK(run_command(daekit_cmd("check " + fixture("broken/fixture_broken_models.so")), &out) == 1);
  CHECK_THAT(check_section(out, "chain_ok"), Catch::EndsWith("=> passed"));
  CHECK_THAT(check_section(out, "chain_ok"), Catch::Contains("[pass] (df/dy) S (jacobian_sens) agrees with differences"));
  CHECK_THAT(check_section(out, "chain_ok"), Catch::Contains("[pass] J v (jacobian_vector) agrees with differences"));
  CHECK_THAT(check_section(out, "chain_ok"), Catch::Contains("[pass] the preconditioner approximates"));
  // A title-less problem whose info names it otherwise than its export: warned, not failed.
  const std::string untitled = check_section(out, "untitled");
  CHECK_THAT(untitled, Catch::EndsWith("=> passed"));
  CHECK_THAT(untitled, Catch::Contains("[warn] the problem has a title: none"));
  CHECK_THAT(untitled, Catch::Contains("[warn] its info name is the name it is exported under: info says "
                                       "'chain_untitled', the plugin exports 'untitled'"));
  const std::vector<std::pair<std::string, std::string>> expected{
      {"jacobian_nan", "[FAIL] analytic Jacobian agrees with finite differences at y0: df/dy has a non-finite entry at row 3, column 1"},
      {"wrong_dfdt", "[FAIL] analytic df/dt agrees with differences in t"},
      {"wrong_jacobian_sens", "[FAIL] (df/dy) S (jacobian_sens) agrees with differences at y0"},
      {"wrong_jacobian_vector", "[FAIL] J v (jacobian_vector) agrees with differences at y0"},
      {"wrong_preconditioner", "[FAIL] the preconditioner approximates (M - gamma J)^-1"},
      {"wrong_dfdp", "[FAIL] df/dp agrees with differences in the parameters"},
      {"wrong_residual_dfdp", "[FAIL] dF/dp agrees with differences in the parameters at the initial values"},
      {"wrong_root_dgdp", "[FAIL] dg/dp agrees with differences in the parameters: worst at root 1, parameter 2: 0 "
                          "against -1"},
      {"wrong_reset_derivatives", "[FAIL] event_derivatives for root 0 agrees with differences of on_event: worst at "
                                  "row 2, parameter 1: 0 against 1"},
      {"wrong_sparse_values", "[FAIL] sparse Jacobian values at y0: sparse df/dy against central differences: "
                              "worst at row 2, column 1: 0.5 against 1"},
      {"pattern_misses_superdiagonal", "[FAIL] sparsity pattern covers df/dy at y0: df/dy at row 3, column 4 is 1"},
      {"mass_contradicts_flags", "[FAIL] mass matrix matches the differential flags: component 4 is flagged algebraic"},
      {"nan_initial_value", "[FAIL] initial values are finite: component 4 is inf"},
      {"not_autonomous", "[FAIL] autonomous as declared"},
      {"wrong_residual_jacobian", "[FAIL] residual Jacobian agrees with differences at y0"},
      {"nan_reference", "[FAIL] reference solution: it has non-finite entries"},
      {"nan_root", "[FAIL] root functions are finite at the initial values: root function 0 (ratio) is nan"},
      {"silent_mode_switch", "[FAIL] on_event for root 0 (x) keeps the algebraic equations satisfied: after it the "
                             "algebraic equations are violated by 2 (before: 0, allowed 1e-08); a reaction that "
                             "changes the DAE's mode must return DK_EVENT_REINIT"},
  };
  for (const auto& [name, line] : expected) {
    INFO(name);
    const std::string section = check_section(out, name);
    CHECK_THAT(section, Catch::Contains(line));
    CHECK_THAT(section, Catch::EndsWith("=> FAILED"));
    // Every FAIL line says why.
    for (std::size_t at = section.find("[FAIL]"); at != std::string::npos; at = section.find("[FAIL]", at + 1)) {
      const std::string fail_line = section.substr(at, section.find('\n', at) - at);
      CHECK_THAT(fail_line, Catch::Contains(": "));
    }
  }
}

TEST_CASE("daekit check takes problem parameters", "[cli][check]") {
  std::string out;
  CHECK(run_command(daekit_cmd("check " + daekit::test::plugin_dir() + "/heat2d.so --param N=4"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("n = 36"));
  CHECK(run_command(daekit_cmd("check " + daekit::test::plugin_dir() + "/heat2d.so --param N=1"), &out) == 1);
  CHECK_THAT(out, Catch::Contains("N must lie in 2 .. 4000"));
}

TEST_CASE("a solver option of choice type must be one alternative exactly", "[cli][options]") {
  std::string out;
  for (const char* bad : {"pi|i", "predictive|pi", "", "p", "pi|"}) {
    INFO(bad);
    CHECK(run_command(daekit_cmd(std::string("run --problem vdpol --solver rodas5p --solver-opt 'controller=") + bad + "'"),
                      &out) == 2);
    CHECK_THAT(out, Catch::Contains("expects choice:predictive|pi|i"));
  }
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --solver-opt controller=pi"), &out) == 0);
}

TEST_CASE("daekit run reports scd by DAE index, and rtol and atol as numbers", "[cli][report]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("run --problem pendulum_dae --param index=3 --solver radau5 --rtol 1e-6 --atol 1e-6 "
                                 "--report json 2>/dev/null"),
                      &out) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["rtol"].get<double>() == 1e-6);
  CHECK(j["atol"].get<double>() == 1e-6);
  REQUIRE(j["scd_by_index"].is_object());
  for (const char* k : {"1", "2", "3"}) CHECK(j["scd_by_index"][k].is_number());
  // Index-3 components (the multiplier) get less accuracy than positions: reported, not hidden.
  CHECK(j["scd_by_index"]["3"].get<double>() < j["scd_by_index"]["1"].get<double>());
  REQUIRE(run_command(daekit_cmd("run --problem pendulum_dae --param index=3 --solver radau5 --rtol 1e-6 --atol 1e-6"),
                      &out) == 0);
  CHECK_THAT(out, Catch::Contains("(index 3)"));
}

TEST_CASE("a run stopped before an added scoring time keeps its points and its report", "[cli][output]") {
  std::string out;
  // The reference time is added to --saveat for scoring; a run ending before it used to
  // pop a point it never had (an internal error) or drop the last one it reached.
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --saveat 1 --max-steps 5"), &out) == 1);
  CHECK_THAT(out, Catch::Contains("too_many_steps"));
  const std::string csv = (std::filesystem::temp_directory_path() / "daekit-saveat-partial.csv").string();
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --saveat 1e-3,10 --max-steps 30 --output " + csv),
                    &out) == 1);
  std::ifstream in(csv + ".partial");  // a failed run writes what it reached beside --output
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK_THAT(row, Catch::StartsWith("0.001,"));
  std::filesystem::remove(csv + ".partial");
}

TEST_CASE("tolerances that accept anything or that no step can meet are refused", "[cli][tolerances]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --rtol 1e3"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("rtol must be below 1"));
  for (const char* solver : {"rodas5p", "radau5", "radauiia", "bdf", "ida", "cvode"}) {
    INFO(solver);
    CHECK(run_command(daekit_cmd(std::string("run --problem rober --solver ") + solver + " --rtol 1e-17 --atol 1e-20"),
                      &out) == 1);
    CHECK_THAT(out, Catch::Contains("tolerances_too_small"));
  }
}

TEST_CASE("saveat takes ranges START:STEP:END beside single times", "[cli][output]") {
  const auto csv = std::filesystem::temp_directory_path() / ("daekit-saveat-range-" + std::to_string(::getpid()) + ".csv");
  std::string out;
  REQUIRE(run_command(daekit_cmd("run --problem vdpol --solver radau5 --saveat 0:0.25:1,1.5,1.6:0.2:2 --output " +
                                 csv.string()),
                      &out) == 0);
  std::vector<double> t;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) t.push_back(std::stod(line.substr(0, line.find(','))));
  // k steps from the start, not sums: no rounding gathers; the end itself where the steps reach it.
  CHECK(t == std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 1.6, 1.6 + 0.2, 2.0});
  std::filesystem::remove(csv);
}

TEST_CASE("nonsense on the command line is refused, not ignored", "[cli][usage]") {
  std::string out;
  const std::vector<std::pair<std::string, std::string>> cases{
      {"run --problem vdpol --solver rodas5p 1e-12", "too many positional options"},
      {"run --problem vdpol --solver rodas5p --saveat ''", "--saveat needs at least one time"},
      {"run --problem vdpol --solver rodas5p --saveat 0:0:1", "has a step that does not lead from its start"},
      {"run --problem vdpol --solver rodas5p --saveat 1:0.1:0", "has a step that does not lead from its start"},
      {"run --problem vdpol --solver rodas5p --saveat 0:1", "a range is START:STEP:END"},
      {"run --problem vdpol --solver rodas5p --saveat 0:1e-9:2", "more than 10^7 points"},
      {"run --problem vdpol --solver rodas5p --saveat 0.5,nan", "got 'nan'"},
      {"run --problem vdpol --solver rodas5p --output ''", "--output needs a file name"},
      {"run --problem vdpol --solver rodas5p --param eps=1e-6 --param eps=1e-3", "gives 'eps' twice"},
      {"run --problem vdpol --solver rodas5p --solver-opt safety=0.8 --solver-opt safety=0.9", "gives 'safety' twice"},
      {"run --problem vdpl --solver rodas5p", "did you mean 'vdpol'"},
      {"run --problem vdpol --solver rodas5 --solver radau", "cannot be specified more than once"},
      {"run --problem vdpol --solver radau", "did you mean 'radau5'"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    CHECK(run_command(daekit_cmd(args), &out) == 2);
    CHECK_THAT(out, Catch::Contains(message));
  }
}

TEST_CASE("output is checked before the solve, every write is checked, and a failed run keeps the old file",
          "[cli][output]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --output /nonexistent-folder/x.csv"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("no folder"));
  if (std::filesystem::exists("/dev/full")) {
    CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --output /dev/full"), &out) == 2);
    CHECK_THAT(out, Catch::Contains("writing /dev/full failed"));
  }
  const auto dir = std::filesystem::temp_directory_path() / "daekit-output-test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "keep.csv").string();
  { std::ofstream(file) << "precious\n"; }
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --every-step --max-steps 5 --output " + file),
                    &out) == 1);
  std::ifstream kept(file);
  std::string line;
  std::getline(kept, line);
  CHECK(line == "precious");
  CHECK(std::filesystem::exists(file + ".partial"));
  CHECK_THAT(out, Catch::Contains(".partial"));
  CHECK(run_command(daekit_cmd("run --problem rober --solver rodas5p --output " + file), &out) == 0);
  std::ifstream fresh(file);
  std::getline(fresh, line);
  CHECK(line == "t,y1,y2,y3");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a failed run writes what it reached into a pipe or a device itself, never beside it", "[cli][output]") {
  // A FIFO stands for /dev/stdout, /dev/null and every other non-regular --output: a
  // "FILE.partial" beside it would be a stray file in /dev, or lost to the reader.
  const auto dir = std::filesystem::temp_directory_path() / ("daekit-fifo-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "points").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(fifo);
    received.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  std::string out;
  const int code = run_command(
      daekit_cmd("run --problem rober --solver rodas5p --every-step --max-steps 5 --output " + fifo), &out);
  // A reader still waiting for a writer (the run never opened the FIFO) gets its end of file.
  if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
  reader.join();
  CHECK(code == 1);
  CHECK_THAT(received, Catch::StartsWith("t,y1,y2,y3\n0,"));
  CHECK(std::count(received.begin(), received.end(), '\n') >= 2);
  CHECK_FALSE(std::filesystem::exists(fifo + ".partial"));
  CHECK_THAT(out, Catch::Contains("points it reached are in " + fifo + "\n"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a plugin's invalid description is refused with the field's name, never used", "[cli][abi]") {
  const std::string file = fixture("invalid/fixture_invalid_descriptions.so");
  std::string out;
  const std::vector<std::pair<std::string, std::string>> problems{{"null_name", "name is NULL"},
                                                                  {"null_index", "the index array is NULL"},
                                                                  {"null_differential", "the differential array is NULL"},
                                                                  {"zero_n", "n is 0"},
                                                                  {"absurd_n", "n = 1000000000000000 is beyond any memory"},
                                                                  {"unsorted_pattern", "the sparsity pattern's rows in column 0 are not strictly ascending"},
                                                                  {"null_output_names", "output_names is NULL for 2 outputs"},
                                                                  {"outputs_without_function", "noutputs = 2 but no outputs function"},
                                                                  {"parameter_twice", "the parameter name 'k' is given twice"},
                                                                  {"parameter_nan", "real parameter 1 ('k2') has a non-finite nominal value"},
                                                                  {"parameters_without_set_p", "np = 2 but no set_p function"},
                                                                  {"block_outside", "the distribution owns rows 2 .. 3 (exclusive), not a non-empty block of 0 .. 2"},
                                                                  {"ghost_owned", "ghost row 0 is one of the rank's own rows"},
                                                                  {"local_pattern_outside", "the distribution's local row 0 has columns outside 0 .. n_local + nghost - 1"},
                                                                  {"without_rhs_local", "a distribution without rhs_local"},
                                                                  {"negative_output_interval", "output_interval = -0.500000 (finite and >= 0 expected)"},
                                                                  {"part_e_without_rhs_local", "a distribution without rhs_local"},
                                                                  {"local_rows_named", "a problem with local rows has component_names (NULL expected)"},
                                                                  {"local_rows_index_two", "index[0] = 2 (1 expected: a problem with local rows is of index 1 at most)"}};
  for (const auto& [name, field] : problems) {
    INFO(name);
    CHECK(run_command(daekit_cmd("info " + name + " --plugin " + file), &out) == 2);
    CHECK_THAT(out, Catch::Contains("invalid description: " + field));
    CHECK(run_command(daekit_cmd("run --problem " + name + " --solver rodas5p --plugin " + file), &out) == 2);
    CHECK_THAT(out, Catch::Contains("invalid description: " + field));
  }
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver null_option_key --plugin " + file), &out) == 2);
  CHECK_THAT(out, Catch::Contains("option 0 has no key"));
  // check reports them as FAILs and survives
  CHECK(run_command(daekit_cmd("check " + file), &out) == 1);
  CHECK_THAT(out, Catch::Contains("invalid description"));
}

TEST_CASE("a refused run with --report json prints a JSON object with its status", "[cli][report]") {
  std::string out;
  CHECK(run_command(subshell(daekit_cmd("run --problem andrews --solver bdf --report json"), "2>/dev/null"), &out) == 2);
  auto j = nlohmann::json::parse(out);
  CHECK(j["status"] == "unsupported_problem");
  CHECK_THAT(j["message"].get<std::string>(), Catch::Contains("index 3"));
  CHECK(run_command(subshell(daekit_cmd("run --problem hires --solver bdf --rtol 2 --report json"), "2>/dev/null"), &out) == 2);
  j = nlohmann::json::parse(out);
  CHECK(j["status"] == "invalid_input");
  CHECK_THAT(j["message"].get<std::string>(), Catch::Contains("rtol must be below 1"));
}

TEST_CASE("a plugin that prints to stdout does not break --report json", "[cli][report]") {
  std::string out;
  const std::string run = daekit_cmd("run --plugin " + fixture("fixture_models.so") +
                                     " --problem chatty_model --solver rodas5p --report json");
  REQUIRE(run_command(subshell(run, "2>/dev/null"), &out) == 0);
  const auto j = nlohmann::json::parse(out);  // nothing but the report on stdout
  CHECK(j["status"] == "success");
  REQUIRE(run_command(subshell(run, "2>&1 >/dev/null"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("chatty_model: f at t="));  // the model's lines went to stderr
  CHECK_THAT(out, Catch::Contains("and through std::cout"));
}

TEST_CASE("files that are not plugins say what is wrong and name the file", "[cli][abi]") {
  const auto dir = std::filesystem::temp_directory_path() / ("daekit-not-plugins-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "empty.so"); }
  { std::ofstream(dir / "text.so") << "not a library\n"; }
  {
    std::ifstream whole(daekit::test::plugin_dir() + "/hires.so", std::ios::binary);
    std::string head(200, '\0');
    whole.read(head.data(), static_cast<std::streamsize>(head.size()));
    std::ofstream(dir / "truncated.so", std::ios::binary) << head;
  }
  std::string out;
  for (const auto& [file, why] : std::vector<std::pair<std::string, std::string>>{
           {"empty.so", "empty file"}, {"text.so", "not an ELF file"}, {"truncated.so", "a truncated or damaged ELF file"}}) {
    INFO(file);
    const std::string path = (dir / file).string();
    CHECK(run_command(daekit_cmd("run --plugin " + path + " --problem hires --solver rodas5p"), &out) == 2);
    CHECK_THAT(out, Catch::Contains(path) && Catch::Contains(why));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("messages name the real cause: hmin against the span, a missing plugin folder", "[cli][usage]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --hmin 5"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("hmin (5) is larger than the time span (2)"));
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --hmin 0.5 --hmax 0.1"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("hmin (0.5) is larger than hmax (0.1)"));
  CHECK(run_command("DAEKIT_PLUGIN_PATH=/no-such-daekit-folder " + daekit_cmd("list"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("DAEKIT_PLUGIN_PATH names /no-such-daekit-folder, which is not a folder"));
}

TEST_CASE("a solver option's key is read with a hyphen or an underscore, and given once", "[cli]") {
  std::string underscore, hyphen, out;
  REQUIRE(run_command(daekit_cmd("run --problem rober --solver bdf --solver-opt max_order=3 --report json"), &underscore) == 0);
  REQUIRE(run_command(daekit_cmd("run --problem rober --solver bdf --solver-opt max-order=3 --report json"), &hyphen) == 0);
  const auto a = nlohmann::json::parse(underscore), b = nlohmann::json::parse(hyphen);
  CHECK(a["stats"]["steps"] == b["stats"]["steps"]);
  CHECK(a["stats"]["order_last"].get<int>() <= 3);
  CHECK(run_command(daekit_cmd("run --problem rober --solver bdf --solver-opt max-order=3 --solver-opt max_order=2"),
                    &out) == 2);
  CHECK_THAT(out, Catch::Contains("solver option 'max_order' is given twice (as 'max-order' and 'max_order')"));
}

TEST_CASE("a model whose mass matrix contradicts its differential flags is refused, not repaired", "[cli][init]") {
  std::string out;
  const std::string models = fixture("broken/fixture_broken_models.so");
  for (const char* solver : {"radau5", "rodas5p", "bdf", "ida"})
    for (const char* init : {"fix", "check"}) {
      INFO(solver << " --init " << init);
      CHECK(run_command(daekit_cmd(std::string("run --plugin ") + models + " --problem mass_contradicts_flags --solver " +
                                   solver + " --init " + init),
                        &out) == 1);
      CHECK_THAT(out, Catch::Contains("invalid_input") && Catch::Contains("component 4 is flagged algebraic"));
    }
}

TEST_CASE("impossible solver results become internal_error naming the plugin", "[cli][abi]") {
  const std::string liars = fixture("invalid/fixture_lying_solvers.so");
  std::string out;
  for (const auto& [solver, why] : std::vector<std::pair<std::string, std::string>>{
           {"success_with_nan", "reported success with a non-finite value (nan) in component 1"},
           {"success_without_output", "reported success without any output point"},
           {"success_at_nan_time", "reported success at t = nan"},
           {"output_of_wrong_size", "emitted a point of 3 values for a problem of 2"}}) {
    INFO(solver);
    CHECK(run_command(daekit_cmd("run --plugin " + liars + " --problem vdpol --solver " + solver), &out) == 1);
    CHECK_THAT(out, Catch::Contains("internal_error") && Catch::Contains("solver '" + solver + "'") &&
                        Catch::Contains(why));
  }
  // Solvers that claim sensitivities (rober's k1, k2) and lie about them.
  for (const auto& [solver, why] : std::vector<std::pair<std::string, std::string>>{
           {"sensitivities_missing", "reported success with sensitivities at 0 of 1 output points"},
           {"sensitivities_of_wrong_size", "emitted sensitivities of 3 x 3 values for 3 x 2"},
           {"sensitivities_with_nan", "reported success with a non-finite sensitivity (nan)"}}) {
    INFO(solver);
    CHECK(run_command(daekit_cmd("run --plugin " + liars + " --problem rober --sensitivities k1,k2 --solver " + solver),
                      &out) == 1);
    CHECK_THAT(out, Catch::Contains("internal_error") && Catch::Contains("solver '" + solver + "'") &&
                        Catch::Contains(why));
  }
}

TEST_CASE("run --max-steps counts attempted steps, the same in every solver family", "[cli][usage]") {
  for (const char* solver : {"rodas5p", "radau5", "radauiia", "bdf", "cvode", "ida"}) {
    INFO(solver);
    std::string out;
    std::string command = "(";
    command += daekit_cmd(std::string("run --problem rober --max-steps 30 --report json --solver ") + solver);
    command += " 2>/dev/null)";
    CHECK(run_command(command, &out) == 1);
    const auto j = nlohmann::json::parse(out);
    CHECK(j["status"] == "too_many_steps");
    // Attempted: accepted plus rejected plus Newton failures, exactly the limit.
    CHECK(j["stats"]["steps"] == 30);
    CHECK(j["stats"]["accepted"].get<int>() + j["stats"]["rejected"].get<int>() <= 30);
  }
}

TEST_CASE("links in a plugin folder that lead nowhere are reported, not skipped silently", "[cli][abi]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("daekit-links-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink(dir / "loop.so", dir / "loop.so");
  fs::create_symlink(dir / "missing-target", dir / "dangling.so");
  std::string out;
  CHECK(run_command(daekit_cmd("list --plugin-path " + dir.string()), &out) == 0);
  CHECK_THAT(out, Catch::Contains("loop.so: Too many levels of symbolic links") && Catch::Contains("dangling.so"));
  fs::remove_all(dir);
}

TEST_CASE("daekit --version --verbose says which LAPACK and BLAS kernel the process runs", "[cli]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("--version --verbose"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("commit ") && Catch::Contains("LAPACK ") && Catch::Contains("BLAS kernel") &&
                      Catch::Contains("CPU "));
  // Told to use the generic kernels, it says so.
  REQUIRE(run_command("OPENBLAS_CORETYPE=Prescott " + daekit_cmd("--version --verbose"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("Prescott"));
}

TEST_CASE("OpenBLAS's generic kernels on a CPU it does not know are replaced by vector kernels", "[cli][blas]") {
  // DAEKIT_SIMULATE_OPENBLAS_GUESS makes OpenBLAS choose as on an unknown CPU model.
  std::string out;
  REQUIRE(run_command("env -u OPENBLAS_CORETYPE DAEKIT_SIMULATE_OPENBLAS_GUESS=Prescott " + daekit_cmd("--version --verbose"), &out) == 0);
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) {
    CHECK_THAT(out, Catch::Contains("chosen by daekit from the CPU's features"));
    CHECK_THAT(out, !Catch::Contains("BLAS kernel Prescott"));
  }
#endif
  // The user's choice is kept, whatever the CPU.
  REQUIRE(run_command("OPENBLAS_CORETYPE=Prescott DAEKIT_SIMULATE_OPENBLAS_GUESS=Prescott " +
                          daekit_cmd("--version --verbose"),
                      &out) == 0);
  CHECK_THAT(out, Catch::Contains("BLAS kernel Prescott: named by OPENBLAS_CORETYPE"));
}

TEST_CASE("problems with an exact solution are scored at any tend, and the report says which reference",
          "[cli][report]") {
  std::string out;
  // (problem, tend, scd floor at rtol = atol = 1e-8 with rodas5p; measured 9.3 .. 12.3)
  const std::vector<std::tuple<std::string, std::string, double>> cases{
      {"prothero_robinson", "3", 8.0}, {"heat2d", "0.05", 8.0}, {"bouncing_ball", "5", 8.0},
      {"mode_switch_dae", "0.3", 8.0},
      // just after the first switch (ln 2): the sensor's transient is in the closed form
      {"thermostat", "0.6935", 8.0}};
  for (const auto& [problem, tend, floor] : cases) {
    INFO(problem << " tend " << tend);
    REQUIRE(run_command(subshell(daekit_cmd("run --problem " + problem + " --solver rodas5p --rtol 1e-8 --atol 1e-8 "
                                            "--report json --tend " + tend),
                                 "2>/dev/null"),
                        &out) == 0);
    const auto j = nlohmann::json::parse(out);
    REQUIRE(j["scd"].is_number());
    CHECK(j["scd"].get<double>() >= floor);
    CHECK(j["reference_used"] == "exact at t = " + tend);
  }
  // At the stored reference's own time the stored vector is used; elsewhere, without an
  // exact solution, no score (null), never a wrong one.
  REQUIRE(run_command(subshell(daekit_cmd("run --problem rober --solver rodas5p --report json"), "2>/dev/null"), &out) == 0);
  CHECK(nlohmann::json::parse(out)["reference_used"] == "stored at t = 1e+11");
  REQUIRE(run_command(subshell(daekit_cmd("run --problem rober --solver rodas5p --report json --tend 10"), "2>/dev/null"),
                      &out) == 0);
  const auto none = nlohmann::json::parse(out);
  CHECK(none["scd"].is_null());
  CHECK(none["reference_used"].is_null());
}
