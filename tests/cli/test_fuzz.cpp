// Random command lines, seeded (so a failure can be replayed: DAEKIT_FUZZ_SEED), built
// from the host's own vocabulary mixed with nonsense, over the library and the broken
// fixture plugins. Whatever the words, the host must answer with an exit code below 128
// (no signal, no sanitizer abort) within its time limit (no hang). The segfaulting
// fixture model is left out: under AddressSanitizer its deliberate crash is a report by
// design (tests/cli/test_isolation.cpp covers it).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

using daekit::test::run_command;

namespace {

class CommandFuzzer {
 public:
  explicit CommandFuzzer(unsigned seed) : rng_(seed) {}

  // One command line as its words (quoted for the shell by the caller).
  std::vector<std::string> next() {
    static const std::vector<std::string> commands = {"run", "run", "run", "info", "list", "check", "wpd", "ensemble", "runn", ""};
    const std::string command = pick(commands);
    std::vector<std::string> line = {command};
    const int words = uniform(0, 7);
    for (int i = 0; i < words; ++i)
      for (auto& w : word(command)) line.push_back(w);
    // Bounded work: every solve has a time limit, every sweep one per point.
    auto add = [&](std::initializer_list<std::string> ws) { line.insert(line.end(), ws); };
    if (command == "run") add({"--problem", pick(problems_), "--solver", pick(solvers_), "--timeout", "20"});
    if (command == "wpd")
      add({"--quiet", "--problem", pick(problems_), "--solvers", pick(solvers_), "--tols", "1e-3,1e-4",
           "--timeout-per-run", "10", "--out", out_dir_ + "/w" + std::to_string(counter_++)});
    if (command == "ensemble")
      add({"--quiet", "--problem", pick(problems_), "--solver", pick(solvers_), "--param-grid", "eps=1e-6,1e-5",
           "--timeout-per-run", "10", "--out", out_dir_ + "/e" + std::to_string(counter_++)});
    if (command == "check") add({pick(plugin_files_)});
    return line;
  }

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  const std::string& pick(const std::vector<std::string>& v) { return v[static_cast<std::size_t>(uniform(0, static_cast<int>(v.size()) - 1))]; }

  std::string value() {
    static const std::vector<std::string> values = {
        "1e-6", "1e-12", "0", "-1", "nan", "inf", "-inf", "1e308", "1e-320", "2", "x", "", "''", "1,2,3", "0.5,0.1",
        "1e-3,nan", "N=4", "N=0", "N=-3", "N=99999999999", "k=", "=v", "==", "controller=pi|i", "controller=i",
        "linear_solver=sparse", "max_order=9", "max_order=-1", "fix", "check", "trust", "json", "text", "csv",
        "/dev/full", "/nonexistent/dir/out.csv", "/tmp", "%s%s%n", "\"quoted\"", "\\x00", "é", std::string(300, 'a'),
        "k=1:2:3", "k=1:2:3:log", "k=0:1:2:log", "k=1:2:1e9", "eps=normal(1e-6,1e-7)", "height=uniform(2,1)",
        "k=gauss(1)", "x,y", "y1", "all", "k1", "k1,k1", "y0", "y0:y9", "y0:1", "all,y0", "on", "off"};
    return pick(values);
  }

  std::vector<std::string> word(const std::string& command) {
    static const std::vector<std::string> options = {
        "--rtol", "--atol", "--h0", "--hmin", "--hmax", "--max-steps", "--tend", "--param", "--solver-opt",
        "--saveat", "--output", "--report", "--jacobian", "--init", "--timeout", "--plugin", "--plugin-path",
        "--tols", "--runs", "--error", "--jobs", "--atol-scale", "--reference-tol", "--reference-solver",
        "--target-scd", "--problem", "--solver", "--solvers", "--param-grid", "--param-random", "--samples",
        "--seed", "--outputs", "--coordinator-jobs", "--silence-limit", "--event-samples", "--derivative-check",
        "--sensitivities", "--sens-error-control", "--gather-limit"};
    static const std::vector<std::string> switches = {"--every-step", "--no-index-scaling", "--suppress-algebraic",
                                                      "--isolate", "--help", "--verbose", "--resume", "--overwrite",
                                                      "-h", "--", "-", "--bogus"};
    switch (uniform(0, 5)) {
      case 0: return {pick(switches)};
      case 1: return {value()};  // a stray word
      case 2: return {"--plugin-path", pick(plugin_dirs_)};
      case 3: return {"--plugin", pick(plugin_files_)};
      default: {
        const std::string& o = pick(options);
        if (command == "run" && (o == "--problem" || o == "--solver")) return {o, pick(problems_)};
        return {o, value()};
      }
    }
  }

  std::mt19937 rng_;
  int counter_ = 0;
  const std::string fixtures_ = daekit::test::fixture_dir();
  const std::string out_dir_ = "/tmp/daekit-fuzz-" + std::to_string(::getpid());
  const std::vector<std::string> problems_ = {"vdpol", "rober", "hires", "pendulum_dae", "prothero_robinson",
                                              "rober_residual", "nan_model", "fatal_model", "singular_dae",
                                              "rhs_throws_int", "factory_throws_int",
                                              "crash_at_load", "positive_rober", "nosuch", "rodas5p"};
  const std::vector<std::string> solvers_ = {"rodas5p", "ros3p", "radau5", "radauiia", "bdf", "ndf", "cvode", "ida",
                                             "rosenbrock23", "success_with_nan", "solve_throws_int", "output_of_wrong_size",
                                             "nosuch", "vdpol"};
  const std::vector<std::string> plugin_dirs_ = {fixtures_, fixtures_ + "/broken", fixtures_ + "/invalid",
                                                 fixtures_ + "/hostile", fixtures_ + "/crash_at_load",
                                                 fixtures_ + "/duplicates", "/nonexistent", "/etc"};
  const std::vector<std::string> plugin_files_ = {
      fixtures_ + "/fixture_not_a_plugin.so", fixtures_ + "/fixture_wrong_major.so", fixtures_ + "/fixture_bad_magic.so",
      fixtures_ + "/invalid/fixture_invalid_descriptions.so", fixtures_ + "/invalid/fixture_lying_solvers.so",
      fixtures_ + "/invalid/fixture_escaping_exceptions.so", fixtures_ + "/fixture_throwing.so",
      fixtures_ + "/fixture_models.so", fixtures_ + "/broken/fixture_broken_models.so",
      fixtures_ + "/crash_at_load/fixture_crash_at_load.so", "/etc/passwd", "/dev/null", "/nonexistent.so"};
};

std::string shell_quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST_CASE("fuzzed command lines never crash or hang the host", "[cli][fuzz]") {
  const char* env = std::getenv("DAEKIT_FUZZ_SEED");
  const unsigned seed = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : 20261202u;
  const int count = daekit::test::fuzz_cases(400);
  CommandFuzzer fuzzer(seed);
  for (int i = 0; i < count; ++i) {
    std::string args;
    for (const auto& w : fuzzer.next()) {
      args += ' ';
      args += shell_quoted(w);
    }
    // The outer limit catches a hang of the host itself (the run's own --timeout is 20 s);
    // stdout is dropped, stderr kept for sanitizer reports.
    std::string command = "(timeout -s KILL 120 ";
    command += daekit::test::daekit_binary();
    command += args;
    command += " > /dev/null)";
    std::string out;
    const int code = run_command(command, &out);
    INFO("seed " << seed << ", command " << i << ": daekit" << args << "\n" << out);
    CHECK(code >= 0);
    CHECK(code < 128);
    CHECK_THAT(out, !Catch::Contains("AddressSanitizer") && !Catch::Contains("runtime error:") &&
                        !Catch::Contains("LeakSanitizer"));
  }
  std::system(("rm -rf /tmp/daekit-fuzz-" + std::to_string(::getpid())).c_str());
}
