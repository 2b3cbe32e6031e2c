// The `daekit` command as users and scripts meet it: exit codes, messages, and
// the `--report json` keys that scripts rely on.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.hpp"

using daekit::test::run_command;

namespace {
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }
std::string fixture(const std::string& file) { return daekit::test::fixture_dir() + "/" + file; }
}  // namespace

TEST_CASE("daekit list shows the solvers and problems with their files", "[cli]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("list"), &out) == 0);
  for (const char* name : {"rodas5p", "fekete", "rober", "rober_dae", "rosenbrock.so", "fekete.so"})
    CHECK_THAT(out, Catch::Contains(name));
}

TEST_CASE("daekit list shows every problem of the library and every solver", "[cli][problems]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("list"), &out) == 0);
  for (const char* name :
       {"hires", "pollu", "ringmod", "medakzo", "emep", "plei", "beam", "vdpol", "vdpolm", "orego", "e5", "rober",
        "chemakzo", "andrews", "transamp", "pump", "tba", "caraxis", "fekete", "crank", "water", "nand", "wheel",
        "crank17", "fekete3", "brusselator", "bdf", "ndf", "radau5", "radauiia", "rodas5p", "ida", "cvode"})
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
  REQUIRE(run_command(daekit_cmd("--version"), &out) == 0);
  REQUIRE(run_command(daekit_cmd("run --help"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("--rtol"));
}
