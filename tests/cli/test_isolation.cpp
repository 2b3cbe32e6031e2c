// The host survives its plugins: a plugin that aborts when loaded harms only the
// commands that use it, crashing and hanging models end as statuses (crashed,
// timeout), and exceptions of any type escaping a raw-ABI plugin are that plugin's
// failure, named. No command may exit with a signal (exit code >= 128).
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

#include "harness.hpp"

using daekit::test::run_command;

namespace {
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }
std::string fixture(const std::string& file) { return daekit::test::fixture_dir() + "/" + file; }
const std::string crash_dir = fixture("crash_at_load");
const std::string hostile_dir = fixture("hostile");
const std::string raw_throwing = fixture("invalid/fixture_escaping_exceptions.so");
}  // namespace

TEST_CASE("a plugin that aborts when loaded is not loaded by commands that do not use it", "[cli][isolation]") {
  std::string out;
  CHECK(run_command(daekit_cmd("list --plugin-path " + crash_dir), &out) == 0);
  CHECK_THAT(out, Catch::Contains("crash_at_load") && Catch::Contains("rodas5p"));
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --rtol 1e-4 --plugin-path " + crash_dir), &out) == 0);
  CHECK_THAT(out, Catch::Contains("status     success"));
  CHECK(run_command(daekit_cmd("info rodas5p --plugin-path " + crash_dir), &out) == 0);
}

TEST_CASE("check, info, list --verbose and run report a plugin that aborts when loaded, with the signal",
          "[cli][isolation]") {
  std::string out;
  CHECK(run_command(daekit_cmd("check " + crash_dir + "/fixture_crash_at_load.so"), &out) == 1);
  CHECK_THAT(out, Catch::Contains("[FAIL]") && Catch::Contains("signal 6") && Catch::Contains("some checks FAILED"));
  CHECK(run_command(daekit_cmd("list --verbose --plugin-path " + crash_dir), &out) == 0);
  CHECK_THAT(out, Catch::Contains("FAIL: its code crashed with signal 6") && Catch::Contains("DAE index up to 2"));
  CHECK(run_command(daekit_cmd("info crash_at_load --plugin-path " + crash_dir), &out) == 2);
  CHECK_THAT(out, Catch::Contains("crash_at_load") && Catch::Contains("signal 6"));
  CHECK(run_command(daekit_cmd("run --problem crash_at_load --solver rodas5p --report json --plugin-path " + crash_dir),
                    &out) == 1);
  CHECK_THAT(out, Catch::Contains("\"status\": \"crashed\"") && Catch::Contains("\"signal\": 6"));
}

TEST_CASE("every command that loads plugin code is bounded: a plugin that hangs when loaded is ended",
          "[cli][isolation]") {
  const std::string hang_dir = fixture("hang_at_load");
  std::string out;
  const auto start = std::chrono::steady_clock::now();
  CHECK(run_command(daekit_cmd("info hang_at_load --timeout 2 --plugin-path " + hang_dir), &out) == 2);
  CHECK_THAT(out, Catch::Contains("hang_at_load") && Catch::Contains("2 s"));
  CHECK(run_command(daekit_cmd("info hang_at_load --timeout 0 --plugin-path " + hang_dir), &out) == 2);
  CHECK_THAT(out, Catch::Contains("--timeout"));
  CHECK(run_command(daekit_cmd("check --timeout 2 " + hang_dir + "/fixture_hang_at_load.so"), &out) == 1);
  CHECK(run_command(daekit_cmd("run --problem hang_at_load --solver rodas5p --timeout 2 --plugin-path " + hang_dir),
                    &out) != 0);
  // Commands that do not use it never run its code.
  CHECK(run_command(daekit_cmd("list --plugin-path " + hang_dir), &out) == 0);
  CHECK(run_command(daekit_cmd("info rodas5p --plugin-path " + hang_dir), &out) == 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(40));
}

TEST_CASE("a model that segfaults ends an isolated run with status crashed and exit 1", "[cli][isolation]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem segfault_model --solver rodas5p --plugin-path " + hostile_dir), &out) == 1);
  // SIGSEGV, or SIGABRT where AddressSanitizer turns the segfault into its report and an abort.
  CHECK_THAT(out, Catch::Contains("status     crashed") && (Catch::Contains("signal 11") || Catch::Contains("signal 6")));
  // Explicit --isolate is the same; JSON carries the status and the signal.
  out.clear();
  // run_command joins stderr to stdout: a subshell keeps stderr out of the JSON.
  std::string quiet = "(";
  quiet += daekit_cmd("run --isolate --problem segfault_model --solver bdf --report json --plugin-path " + hostile_dir);
  quiet += " 2>/dev/null)";
  CHECK(run_command(quiet, &out) == 1);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["status"] == "crashed");
  CHECK((j["signal"] == 11 || j["signal"] == 6));
  CHECK(j["problem"] == "segfault_model");
}

TEST_CASE("run --timeout ends a model that never returns, with status timeout", "[cli][isolation]") {
  std::string out;
  const auto start = std::chrono::steady_clock::now();
  CHECK(run_command(daekit_cmd("run --problem hanging_model --solver radau5 --timeout 1 --plugin-path " + hostile_dir),
                    &out) == 1);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 30);
  CHECK_THAT(out, Catch::Contains("status     timeout") && Catch::Contains("killed after the timeout of 1 s"));
  // A model that closes the host's pipe before it hangs is held to the limit as well.
  CHECK(run_command(daekit_cmd("run --problem closing_model --solver rodas5p --timeout 1 --plugin-path " + hostile_dir),
                    &out) == 1);
  CHECK_THAT(out, Catch::Contains("status     timeout"));
  // What --timeout (and --gather-limit, the rows of one output file over MPI ranks) cannot mean is refused.
  for (const char* bad : {"--timeout 0", "--timeout -1", "--timeout nan", "--timeout 5 --in-process", "--isolate --in-process",
                          "--gather-limit 0", "--gather-limit -5", "--gather-limit many"}) {
    INFO(bad);
    CHECK(run_command(daekit_cmd(std::string("run --problem vdpol --solver rodas5p ") + bad), &out) == 2);
  }
  // In process, a normal run is unchanged.
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver rodas5p --rtol 1e-4 --in-process"), &out) == 0);
}

TEST_CASE("exceptions of no standard type escaping a raw-ABI plugin are that plugin's failure", "[cli][abi][isolation]") {
  std::string out;
  const std::string plugin = " --plugin " + raw_throwing;
  CHECK(run_command(daekit_cmd("run --problem factory_throws_int --solver rodas5p" + plugin), &out) == 2);
  CHECK_THAT(out, Catch::Contains("factory_throws_int") && Catch::Contains("let an exception escape its factory"));
  CHECK(run_command(daekit_cmd("run --problem vdpol --solver solve_throws_int" + plugin), &out) == 1);
  CHECK_THAT(out, Catch::Contains("internal_error") && Catch::Contains("let an exception escape its solve function"));
  // A model's exception must not unwind through any solver, SUNDIALS' C code included.
  for (const char* solver : {"rodas5p", "radau5", "radauiia", "bdf", "cvode", "ida"}) {
    INFO(solver);
    const int code = run_command(daekit_cmd(std::string("run --in-process --problem rhs_throws_int --solver ") + solver + plugin), &out);
    CHECK(code == 1);
    CHECK_THAT(out, Catch::Contains("exception escape"));
  }
}

TEST_CASE("daekit check of solvers that report impossible results fails them without crashing itself",
          "[cli][check][isolation]") {
  // Found by the fuzz test under AddressSanitizer: the negative-tolerance check handed the
  // solver a sink without an emit function, and a solver that runs anyway called it.
  std::string out;
  CHECK(run_command(daekit_cmd("check " + fixture("invalid/fixture_lying_solvers.so")), &out) == 1);
  CHECK_THAT(out, Catch::Contains("[FAIL] refuses a negative tolerance") && !Catch::Contains("signal"));
  // Each lie is named, as `daekit run` names it.
  for (const char* lie : {"emitted a point of 4 values for a problem of 3", "reported success at t = nan",
                          "reported success with a non-finite value", "reported success without any output point"})
    CHECK_THAT(out, Catch::Contains(std::string("an impossible result: it ") + lie));
}
