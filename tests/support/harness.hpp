// Running plugins from tests exactly as the host does: through the loader and
// the C boundary, with options built from the problem's own description.
#pragma once

#include <Eigen/Core>
#include <daekit/loader/registry.hpp>
#include <daekit/scoring.hpp>
#include <daekit/status.hpp>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace daekit::test {

std::string plugin_dir();   // the build tree's lib/daekit/abi1
std::string fixture_dir();  // deliberately broken or misbehaving plugins
std::string testset_dir();  // ../shared/testset, may be absent
std::string daekit_binary();
std::string fmu_dir();  // the test FMUs (tests/fmu), broken ones in bad/

// How many cases a seeded fuzz test runs: all of `full` in the plain builds, a quarter in
// the sanitizer build (the same seeds, the first cases), where every case starts the host
// under AddressSanitizer: there the command-line fuzz took 218 s and the FMU fuzz 130 s of
// a CI run that must stay under 50 minutes. Each CI run runs both builds.
int fuzz_cases(int full);
// Whether the daekit under test is the sanitizer build's (the test itself may be compiled
// without the instrumentation: cmake/DaekitSanitizer.cmake).
bool sanitized_build();
// "mpirun ... -n RANKS <daekit>": as root (--allow-run-as-root), more ranks than cores
// (--oversubscribe), and in the sanitizer build without the leak check (Open MPI's own
// allocations outlive MPI_Finalize by design; our code's leaks are checked by the
// single-process tests).
std::string mpirun(int ranks, const std::string& extra = "");

// The build tree's plugins and the fixtures (the broken ones are refused, not loaded).
const loader::Registry& registry();
// The build tree's solvers (not the fixtures'), and those among them that claim events.
std::vector<std::string> in_tree_solvers();
std::vector<std::string> event_solvers();

struct RunSpec {
  std::string problem;
  std::string problem_dir;  // a folder of problem plugins the shared registry leaves out, or ""

  std::string solver = "rodas5p";
  double rtol = 1e-6;
  double atol = -1.0;  // < 0: the problem's atol scale times rtol (as the host), else rtol
  std::map<std::string, std::string> params, solver_options;
  dk_output_mode output = DK_OUTPUT_END;
  std::vector<double> saveat;
  std::int64_t max_events = 0;  // 0: the solver's default
  // Last-minute changes to the C options or the initial values.
  std::function<void(dk_solve_options&, std::vector<double>& y0)> tweak;
  std::function<void(std::vector<double>& yp0)> tweak_yp0;  // when the problem gives y'(t0)
};

// The common case: a problem, a solver and tolerances (atol < 0: rtol).
RunSpec spec_for(const std::string& problem, const std::string& solver, double rtol, double atol = -1.0);
// Sets the initial-value policy, keeping any tweak already there.
void set_init(RunSpec& spec, dk_init_policy init);
// Asks for one forward sensitivity, dy/dp_0 (the first parameter), keeping any tweak already there.
void ask_sensitivity(RunSpec& spec);

// One fired root function (or a time event: index -1) as the solver reported it.
struct FiredEvent {
  double t = 0;
  std::int32_t index = -1;
  std::int32_t direction = 0;
  std::uint32_t action = DK_EVENT_CONTINUE;
};

struct RunResult {
  dk_result result{};
  std::vector<double> t, y;
  std::vector<FiredEvent> events;
  std::vector<double> marked_t;          // times of the points at events
  std::vector<std::uint32_t> marks;      // DK_MARK_LEFT_LIMIT / DK_MARK_RIGHT_LIMIT
  std::vector<double> marked_y;          // their states, n each
  std::size_t n = 0;
  std::shared_ptr<loader::ProblemInstance> problem;

  Status status() const { return static_cast<Status>(result.status); }
  const dk_stats& stats() const { return result.stats; }
  Eigen::VectorXd y_at(std::size_t k) const { return Eigen::Map<const Eigen::VectorXd>(y.data() + k * n, n); }
  Eigen::VectorXd y_end() const { return y_at(t.size() - 1); }
  Eigen::VectorXd marked_y_at(std::size_t k) const { return Eigen::Map<const Eigen::VectorXd>(marked_y.data() + k * n, n); }
  std::string message() const { return result.message; }
  // Accuracy at the end against the problem's reference (the test set's scd).
  Accuracy accuracy(double rtol, double atol) const;
};

RunResult run(const RunSpec& spec);

// Runs a shell command, returning its exit code and what it printed (stdout and stderr).
int run_command(const std::string& command, std::string* output);

}  // namespace daekit::test
