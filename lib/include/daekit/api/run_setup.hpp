// From command-line settings to the C options of one solve: the tolerances the
// problem suggests when none are given, y0 and y'0 from the problem, and every
// check the solver would make, so bad input is refused before anything runs.
// Used by `daekit run`, every point of `daekit wpd`, and daekit::solve.
#pragma once

#include <daekit/loader/registry.hpp>
#include <daekit/scoring.hpp>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace daekit::api {

// The scalar G of a solution whose gradient an adjoint solve gives (ABI 1.3, docs/adjoints.md):
//   G = phi(y(T)) + integral of g(t, y) over [t0, T] + sum_k r_k(y(t_k))^2 / 2.
// Each term returns its value and fills its gradients (dy: n values, dp: np values, both
// zeroed before the call); an absent function is no term. data_t: in the direction of
// integration. An exception thrown by a term fails the solve with its message.
struct Functional {
  std::function<double(const double* y, double* dy, double* dp)> terminal;
  std::function<double(double t, const double* y, double* dy, double* dp)> running;
  std::vector<double> data_t;
  std::function<double(std::size_t k, const double* y, double* dy, double* dp)> data_term;
};

// Solver options are spelled with underscores, as the solvers declare them
// (`linear_solver`); a hyphen in a key given by a user is read as an underscore
// (`linear-solver`), so either spelling works on every front end (docs/cli.md).
inline std::string canonical_option_key(std::string key) {
  for (char& c : key)
    if (c == '-') c = '_';
  return key;
}

struct RunSettings {
  std::optional<double> rtol, atol, tend;
  double h0 = 0, hmin = 0, hmax = 0;
  std::int64_t max_steps = 100000;
  std::map<std::string, std::string> solver_options;
  std::string jacobian = "auto";  // auto, analytic, fd
  std::string init = "check";     // check, fix, trust
  bool index_scaling = true, suppress_algebraic = false;
  dk_output_mode output = DK_OUTPUT_END;
  std::vector<double> saveat;
  std::int64_t max_events = 0;  // 0: the solver's default (1000)
  bool dense = false;  // the solver keeps its dense output: y(t) at any t after the solve
  // Interior points of each step where the root functions are sampled (docs/events.md):
  // -1 the solver's default (DK_DEFAULT_EVENT_SAMPLES), 0 none (the step's ends only).
  int event_samples = -1;
  bool derivative_check = true;  // compare supplied Jacobians with differences at run time
  // Once *interrupt is true the solve ends at its next model evaluation, with
  // evaluation_failure "interrupted" (api/interruptible_problem.hpp); nullptr: never.
  const std::atomic<bool>* interrupt = nullptr;
  // Variables recorded at every output point (--output-vars): names of components of y or
  // of the problem's outputs (an FMU's outputs and locals), in the order wanted.
  std::vector<std::string> output_vars;
  // Forward sensitivities (--sensitivities): "all", parameter names, "y0", "y0:NAME"
  // (api/sensitivity_columns.hpp); empty: none. They join the error test only when asked
  // (off by default, as in CVODES and IDAS: measured, errconS is SUNFALSE there).
  std::vector<std::string> sensitivities;
  bool sensitivity_error_control = false;
  // Initial values that replace the problem's (--y0): component (name or 1-based index,
  // as in "y0:NAME") -> value. They do not depend on the parameters: their rows of s(t0)
  // are 0 for parameter columns. A DAE's algebraic components then need --init fix.
  std::map<std::string, double> initial_values;
  // The gradient of `adjoint` (owned by the caller, alive during the solve) by the solver's
  // adjoint; nullptr: none.
  const Functional* adjoint = nullptr;
};

// Where one variable of RunSettings::output_vars comes from.
struct VariableColumn {
  std::string name;
  bool component = true;    // y[index], else the problem's output `index`
  std::uint32_t index = 0;
};

// One event as the solver reported it (a root function that fired, or a time event).
struct EventRecord {
  double t = 0;
  std::uint32_t kind = DK_EVENT_ROOT;
  std::int32_t index = -1;    // the root function (0-based), -1 for a time event
  std::int32_t direction = 0; // +1 rising, -1 falling, 0 for a time event
  std::uint32_t action = DK_EVENT_CONTINUE;
};

// Output points of a solve, stored as they arrive (row-major y, n per time).
struct Trajectory {
  std::vector<double> t, y;
  std::size_t n = 0;    // a point's entries (n, or the owned rows with local rows): a point of any other size is refused
  std::string violation;  // the first impossible point a solver emitted, if any
  // Events (ABI 1.2): what fired, and the points at both limits of each reset.
  std::vector<EventRecord> events;
  std::vector<double> marked_t, marked_y;
  std::vector<std::uint32_t> marks;  // DK_MARK_LEFT_LIMIT / DK_MARK_RIGHT_LIMIT
  // The variables of RunSettings::output_vars, computed as each point arrived (so a
  // model's discrete values are those of the point's mode): row-major,
  // variable_names.size() per point, for the points and for the marked points.
  std::vector<std::string> variable_names;
  std::vector<double> variables, marked_variables;
  // Forward sensitivities (ABI 1.3): for each point of t, the n x ns matrix dy/dq
  // column-major (column k = dy/dq_k), q named by sensitivity_names.
  std::vector<std::string> sensitivity_names;
  std::vector<double> s;
  std::size_t sensitivity_count() const { return sensitivity_names.size(); }
  // d y_i / d q_k at point `point`.
  double sensitivity(std::size_t point, std::size_t i, std::size_t k) const {
    return s[(point * sensitivity_count() + k) * n + i];
  }
};
// A sink that appends every point to `trajectory` (whose n must be set).
dk_output_sink collect_into(Trajectory& trajectory);
// The event sink that records into `trajectory`.
dk_event_sink collect_events_into(Trajectory& trajectory);
// "" when a solver's result is possible: a success must have reached tend (an end by an
// event: a time in [t0, tend]) with at least one point, every point finite and of the
// problem's size (on a rank other than 0 of a problem spread over MPI ranks: none, the
// output is gathered to rank 0). Else what was impossible.
std::string impossible_result(const dk_result& result, const Trajectory& trajectory, const dk_solve_options& options,
                              const dk_problem_info& info);

class PreparedRun;
// One solve into `trajectory` (whose n is set here): a result the solver could not have
// computed (impossible_result) becomes internal_error, naming the solver, with no points.
// Each solve starts from the problem's initial state: initial_values is called first (a
// problem resets its mode there), so repeated solves of one PreparedRun are alike.
// With `variables`, they are recorded at every point; a problem that cannot compute them
// there ends the run with evaluation_failure, naming the variable and the time.
// With `interrupt`, the solve ends at the next model evaluation after it turns true.
dk_result solve_checked(const loader::ProblemInstance& problem, const loader::SolverInstance& solver,
                        const dk_solve_options& options, Trajectory& trajectory, bool with_events = true,
                        const std::vector<VariableColumn>* variables = nullptr,
                        const std::atomic<bool>* interrupt = nullptr);

class PreparedRun {
 public:
  // Throws UsageError naming the bad setting.
  PreparedRun(const loader::ProblemInstance& problem, const loader::SolverInstance& solver, const RunSettings& s);
  PreparedRun(const PreparedRun&) = delete;
  PreparedRun& operator=(const PreparedRun&) = delete;

  const dk_solve_options& options() const { return options_; }
  // The options with events and marked points going to `events`.
  dk_solve_options options_with(const dk_event_sink* events) const {
    dk_solve_options o = options_;
    o.events = events;
    return o;
  }
  double rtol() const { return rtols_[0]; }
  double atol_at(std::size_t i) const { return atols_[atols_.size() == 1 ? 0 : i]; }
  const std::string& atol_text() const { return atol_text_; }
  const std::vector<double>& atols() const { return atols_; }
  const std::vector<double>& y0() const { return y0_; }
  // RunSettings::output_vars resolved against the problem's components and outputs.
  const std::vector<VariableColumn>& variables() const { return variables_; }
  // The sensitivities' names (a parameter, or "y0:COMPONENT"), in the order of sens_index.
  const std::vector<std::string>& sensitivity_names() const { return sensitivity_names_; }
  // After an adjoint solve: dG/dp (y0's dependence on p included), dG/dy0 and G.
  std::vector<double> total_gradient() const;
  const std::vector<double>& gradient_y0() const { return gradient_y0_; }
  double functional_value() const { return functional_value_; }
  // What a term of the functional threw during the solve ("" when none did).
  const std::string& functional_error() const { return functional_error_; }

 private:
  std::vector<std::int32_t> sens_index_;
  std::vector<double> sens_initial_;  // s(t0) where y0 depends on p (else empty)
  std::vector<std::string> sensitivity_names_;
  std::vector<double> rtols_, atols_, y0_, yp0_, saveat_;
  std::vector<std::pair<std::string, std::string>> extra_strings_;
  std::vector<dk_keyval> extra_;
  std::string atol_text_;
  std::vector<VariableColumn> variables_;
  // The adjoint's functional as the C table, and where the solver writes its results.
  std::shared_ptr<struct FunctionalCall> call_;
  dk_functional functional_{};
  mutable std::string functional_error_;
  std::vector<double> gradient_, gradient_y0_, dy0_dp_;  // dy0_dp_: n x np, empty when y0 is independent of p
  double functional_value_ = 0;
  dk_solve_options options_{};
  void prepare_adjoint(const loader::ProblemInstance& problem, const RunSettings& s,
                       const std::vector<std::size_t>& replaced);
};

// Accuracy at the end against the problem's reference (the test set's scd and mescd),
// when the problem has one at the time the run ended.
// The reference used: the stored vector at its time, else the problem's exact solution
// at t_end (reference_at); *used says which ("stored at t = 1e11", "exact at t = 0.5").
std::optional<Accuracy> final_accuracy(const loader::ProblemInstance& problem, const PreparedRun& run, double t_end,
                                       const double* y_end, std::string* used = nullptr);
// The reference final_accuracy scores against: the stored vector at its time, else the
// exact solution at t_end. False when the problem has neither.
bool reference_at_end(const loader::ProblemInstance& problem, double t_end, std::vector<double>& yref,
                      std::string* used = nullptr);
// Whether final_accuracy can score a run that ends at t_end.
bool has_reference_at_time(const loader::ProblemInstance& problem, double t_end);
// The same score against another reference (a reference solver's y(tend)).
Accuracy accuracy_against(const loader::ProblemInstance& problem, const PreparedRun& run,
                          const std::vector<double>& yref, const double* y_end);

// A number as messages and reports print it (iostream's default, 6 significant digits).
std::string format_number(double v);

// "components 1-60", "all components", "3 scored components".
std::string scored_components_text(const dk_problem_info& info);

// The names --output-vars accepts into columns: a component's name (or y1, y2, ... for
// unnamed ones) or an output's. Throws UsageError for an unknown name (with the closest)
// or one given twice.
std::vector<VariableColumn> resolve_variables(const loader::ProblemInstance& problem,
                                              const std::vector<std::string>& names);

}  // namespace daekit::api
