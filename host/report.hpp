// What `daekit run` reports: the human-readable summary and the `--report json`
// object. The JSON keys are a contract for scripts: extend, never rename.
#pragma once

#include <daekit/abi.h>
#include <daekit/scoring.hpp>
#include <nlohmann/json.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <daekit/api/run_setup.hpp>

#include "child_process.hpp"

namespace daekit::host {
using namespace daekit::api;  // the run settings are the library's

struct RunReport {
  std::string problem, problem_title, solver, solver_version;
  std::size_t n = 0;
  double t0 = 0, tend = 0;
  std::string rtol, atol;  // as used, in words ("1e-08" or "1e-12 * scale")
  double rtol_value = 0;
  std::vector<double> atol_values;  // one, or n
  std::string jacobian;
  dk_result result{};
  std::optional<Accuracy> accuracy;  // when the problem has a reference at tend and the run got there
  std::string reference_source;
  std::string reference_used;  // "stored at t = ..." or "exact at t = ..." (reference_at)
  std::string scored_components;
  // Events (ABI 1.2), with the names of the problem's root functions.
  bool has_events = false;  // the problem declares root functions or time events
  bool constraints_ignored = false;  // the problem declares sign constraints the solver does not enforce
  std::vector<EventRecord> events;
  std::vector<std::string> root_names;
  // Forward sensitivities (--sensitivities): their names and dy/dq at the last point,
  // at_end[i][k] = d y_i / d q_k (empty when none were asked for or none reached).
  std::vector<std::string> component_names, sensitivity_names;
  std::vector<std::vector<double>> sensitivities_at_end;
};

void print_text(const RunReport& r, std::ostream& out);
nlohmann::json to_json(const RunReport& r);

// UsageError unless `file` can be written: an existing file or device writable, or a new
// file's folder writable. Checked before a solve, so its result is not lost.
void check_writable(const std::string& file);

// Runs a command's body; when it is refused (a UsageError) and JSON was asked (run, fit),
// stdout gets the refusal as JSON too (status invalid_input, or unsupported_problem for a
// problem beyond the solver, and the message) before the UsageError goes on.
int reporting_refusals(bool json, const std::function<int()>& body);
// A command that runs plugins (run, fit): `body` in a child process by default (in this
// one with in_process), refusals reported as above; the child prints the report itself,
// and `lost` speaks when it could not (a crash, a hang past timeout_s).
int run_isolated(const char* command, bool json, bool in_process, double timeout_s, const std::function<int()>& body,
                 const std::function<int(const ChildOutcome&)>& lost);
// How a child that ran the plugins ended without reporting: status timeout or crashed, and
// the message, opening with `what` ("the run of solver 'S' on problem 'P'").
struct LostChild {
  std::string status, message;
};
LostChild lost_child(const ChildOutcome& end, double timeout, const std::string& what);
// What the parent prints when the child that ran the plugins could not report: status
// (crashed, timeout), message, problem, solver and the signal (null unless crashed).
nlohmann::json lost_child_json(const std::string& status, const std::string& message, const std::string& problem,
                               const std::string& solver, int signal);

// Trajectory output: CSV (t, component names) or JSON, chosen by the file's extension.
// A regular file is written to a temporary name in its folder and renamed when complete,
// so a failed write leaves an existing file intact; every write is checked (UsageError).
void write_trajectory(const std::string& file, const std::vector<std::string>& names, const std::vector<double>& t,
                      const std::vector<double>& y);
// The same with the points at events merged in time order and a last column `event`:
// 0 an ordinary point, 1 the left limit of an event, 2 the right limit after a reset.
// The columns are y (names: the components') or the variables the run recorded
// (--output-vars; names: trajectory.variable_names).
enum class TrajectoryColumns { components, variables };
void write_trajectory_with_events(const std::string& file, const std::vector<std::string>& names,
                                  const Trajectory& trajectory,
                                  TrajectoryColumns columns = TrajectoryColumns::components);

}  // namespace daekit::host
