#include "daekit/api/run_setup.hpp"

#include "daekit/api/interruptible_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <daekit/sdk/closest_names.hpp>
#include <daekit/solve_request.hpp>
#include <set>
#include <sstream>

#include "daekit/api/discovery.hpp"
#include "daekit/api/sensitivity_columns.hpp"

namespace daekit::api {
std::string format_number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

namespace {
std::int32_t append_point(void* env, double t, const double* y, std::size_t n) {
  auto* trajectory = static_cast<Trajectory*>(env);
  if (n != trajectory->n || !y) {
    // Reading n values could run past the solver's buffer: stop the solve instead.
    trajectory->violation = "emitted a point of " + std::to_string(n) + " values for a problem of " +
                            std::to_string(trajectory->n);
    return 1;
  }
  trajectory->t.push_back(t);
  trajectory->y.insert(trajectory->y.end(), y, y + n);
  return 0;
}
std::int32_t record_event(void* env, const dk_event* event, std::uint32_t action) {
  auto* trajectory = static_cast<Trajectory*>(env);
  if (!event) return 0;
  if (event->kind != DK_EVENT_ROOT || event->nfired == 0 || !event->fired) {
    trajectory->events.push_back({event->t, event->kind, -1, 0, action});
    return 0;
  }
  for (std::size_t k = 0; k < event->nfired; ++k)
    trajectory->events.push_back(
        {event->t, event->kind, event->fired[k], event->directions ? event->directions[k] : 0, action});
  return 0;
}

std::int32_t append_marked_point(void* env, double t, const double* y, std::size_t n, std::uint32_t mark) {
  auto* trajectory = static_cast<Trajectory*>(env);
  if (n != trajectory->n || !y) {
    trajectory->violation = "emitted an event point of " + std::to_string(n) + " values for a problem of " +
                            std::to_string(trajectory->n);
    return 1;
  }
  trajectory->marked_t.push_back(t);
  trajectory->marked_y.insert(trajectory->marked_y.end(), y, y + n);
  trajectory->marks.push_back(mark);
  return 0;
}

// The sinks of a solve that records variables besides y: the points as collect_into
// stores them, then the variables at each, computed at once (an FMU's discrete values
// change at the next event).
class VariableRecorder {
 public:
  VariableRecorder(const loader::ProblemInstance& problem, Trajectory& trajectory,
                   const std::vector<VariableColumn>& columns)
      : problem_(problem), trajectory_(trajectory), columns_(columns) {
    for (const auto& c : columns_) {
      trajectory_.variable_names.push_back(c.name);
      if (!c.component) which_.push_back(c.index);
    }
    outputs_.resize(which_.size());
  }
  dk_output_sink sink() { return {this, &point}; }
  dk_event_sink event_sink() { return {sizeof(dk_event_sink), this, &event, &marked_point}; }
  const std::string& error() const { return error_; }

 private:
  static std::int32_t point(void* env, double t, const double* y, std::size_t n) {
    auto* self = static_cast<VariableRecorder*>(env);
    if (append_point(&self->trajectory_, t, y, n) != 0) return 1;
    if (self->record(t, y, self->trajectory_.variables)) return 0;
    // Rows stay whole: a point without its variables is not kept.
    self->trajectory_.t.pop_back();
    self->trajectory_.y.resize(self->trajectory_.y.size() - n);
    return 1;
  }
  static std::int32_t marked_point(void* env, double t, const double* y, std::size_t n, std::uint32_t mark) {
    auto* self = static_cast<VariableRecorder*>(env);
    if (append_marked_point(&self->trajectory_, t, y, n, mark) != 0) return 1;
    if (self->record(t, y, self->trajectory_.marked_variables)) return 0;
    self->trajectory_.marked_t.pop_back();
    self->trajectory_.marked_y.resize(self->trajectory_.marked_y.size() - n);
    self->trajectory_.marks.pop_back();
    return 1;
  }
  static std::int32_t event(void* env, const dk_event* e, std::uint32_t action) {
    return record_event(&static_cast<VariableRecorder*>(env)->trajectory_, e, action);
  }
  bool record(double t, const double* y, std::vector<double>& into) {
    std::string why;
    if (!which_.empty() && !problem_.outputs(t, y, which_, outputs_.data(), &why)) {
      error_ = "the outputs could not be computed at t = " + format_number(t) + ": " + why;
      return false;
    }
    std::size_t next_output = 0;
    for (const auto& c : columns_) into.push_back(c.component ? y[c.index] : outputs_[next_output++]);
    return true;
  }

  const loader::ProblemInstance& problem_;
  Trajectory& trajectory_;
  const std::vector<VariableColumn>& columns_;
  std::vector<std::uint32_t> which_;
  std::vector<double> outputs_;
  std::string error_;
};

}  // namespace

dk_output_sink collect_into(Trajectory& trajectory) { return {&trajectory, &append_point}; }

namespace {

// What a run of a problem with local rows (each rank holds its owned rows alone) cannot
// do: name a component, or take sensitivities and gradients (the distributed solver
// refuses them, but their set-up here would read n-entry arrays first).
void refuse_on_local_rows(const dk_problem_info& info, const RunSettings& s) {
  const std::string who = "problem '" + std::string(info.name) + "' keeps its rows on the ranks that own them";
  if (!s.initial_values.empty()) throw UsageError("--y0: " + who + " (no names); change its parameters instead");
  if (!s.sensitivities.empty() || s.adjoint)
    throw UnsupportedProblem(who + ": sensitivities and adjoint gradients over MPI ranks are not supported");
}

}  // namespace

std::vector<VariableColumn> resolve_variables(const loader::ProblemInstance& problem,
                                              const std::vector<std::string>& names) {
  const dk_problem_info& info = problem.info();
  if (names.empty()) return {};  // no list of n names to build (10^8 of them on a rank)
  if (dk_rows_held(&info) < info.n)
    throw UsageError("--output-vars: problem '" + std::string(info.name) +
                     "' keeps its rows on the ranks that own them (no names); write all components");
  std::vector<std::string> known;
  for (std::size_t i = 0; i < info.n; ++i) known.push_back(component_name(info, i));
  const std::size_t components = known.size();
  for (std::size_t k = 0; k < problem.output_count(); ++k) known.push_back(problem.output_name(k));
  std::vector<VariableColumn> columns;
  std::set<std::string> seen;
  for (const auto& name : names) {
    if (!seen.insert(name).second) throw UsageError("--output-vars names '" + name + "' twice");
    const auto at = std::find(known.begin(), known.end(), name);
    if (at == known.end()) {
      std::string msg = "problem '" + std::string(info.name) + "' has no variable '" + name + "'";
      const auto near = closest_names(name, known);
      for (std::size_t i = 0; i < near.size(); ++i) msg += (i == 0 ? "; did you mean '" : "', '") + near[i];
      if (!near.empty()) msg += "'?";
      msg += problem.output_count() > 0 ? " (daekit info " + std::string(info.name) + " lists its outputs)"
                                        : " (it has no outputs besides its " + std::to_string(components) + " components)";
      throw UsageError(msg);
    }
    const auto position = static_cast<std::size_t>(at - known.begin());
    columns.push_back(position < components
                          ? VariableColumn{name, true, static_cast<std::uint32_t>(position)}
                          : VariableColumn{name, false, static_cast<std::uint32_t>(position - components)});
  }
  return columns;
}

dk_event_sink collect_events_into(Trajectory& trajectory) {
  return {sizeof(dk_event_sink), &trajectory, &record_event, &append_marked_point};
}

std::string impossible_result(const dk_result& result, const Trajectory& trajectory, const dk_solve_options& options,
                              const dk_problem_info& info) {
  const double tend = options.tend;
  if (!trajectory.violation.empty()) return trajectory.violation;
  const bool by_event = result.status == DK_STATUS_STOPPED_BY_EVENT;
  if (result.status != DK_STATUS_SUCCESS && !by_event) return "";
  if (!std::isfinite(result.t_reached)) return "reported success at t = " + format_number(result.t_reached);
  // An event may end the run early, never after tend.
  const double dir = tend >= options.t0 ? 1.0 : -1.0;
  if (by_event ? dir * (result.t_reached - tend) > 0.0 || dir * (result.t_reached - options.t0) < 0.0
               : result.t_reached != tend)
    return "reported success at t = " + format_number(result.t_reached) + (by_event ? " beyond" : " before") +
           " tend = " + format_number(tend);
  // A problem spread over MPI ranks has its output gathered to rank 0, the others get none;
  // with local rows every rank gets its own rows.
  const bool output_elsewhere = dk_distribution_of(&info) && info.distribution->mpi_rank != 0 && dk_rows_held(&info) == info.n;
  if (trajectory.t.empty() && !output_elsewhere) return "reported success without any output point";
  const std::size_t block = trajectory.n * trajectory.sensitivity_count();
  if (block > 0 && trajectory.s.size() != trajectory.t.size() * block)
    return "reported success with sensitivities at " + std::to_string(trajectory.s.size() / block) + " of " +
           std::to_string(trajectory.t.size()) + " output points";
  for (std::size_t k = 0; k < trajectory.s.size(); ++k)
    if (!std::isfinite(trajectory.s[k]))
      return "reported success with a non-finite sensitivity (" + format_number(trajectory.s[k]) + ") at t = " +
             format_number(trajectory.t[k / block]);
  for (std::size_t k = 0; k < trajectory.t.size(); ++k) {
    if (!std::isfinite(trajectory.t[k])) return "reported success with an output point at t = " + format_number(trajectory.t[k]);
    for (std::size_t i = 0; i < trajectory.n; ++i)
      if (!std::isfinite(trajectory.y[k * trajectory.n + i]))
        return "reported success with a non-finite value (" + format_number(trajectory.y[k * trajectory.n + i]) +
               ") in component " + std::to_string(i + 1) + " at t = " + format_number(trajectory.t[k]);
  }
  return "";
}

PreparedRun::PreparedRun(const loader::ProblemInstance& problem, const loader::SolverInstance& solver,
                         const RunSettings& s) {
  const dk_problem_info& info = problem.info();
  const std::size_t n = dk_rows_held(&info);  // the owned rows of a problem with local rows
  if (n < info.n) refuse_on_local_rows(info, s);
  // Tolerances: as given, else the problem's suggestion (the test set's settings).
  const double rtol = s.rtol ? *s.rtol : (info.rtol_hint > 0 ? info.rtol_hint : 1e-6);
  rtols_ = {rtol};
  if (s.atol) {
    atols_ = {*s.atol};
    atol_text_ = format_number(*s.atol);
  } else if (info.atol_scale) {
    for (std::size_t i = 0; i < n; ++i) atols_.push_back(info.atol_scale[i] * rtol);
    atol_text_ = "rtol*scale (problem's suggestion, e.g. " + format_number(atols_[0]) + ")";
  } else {
    atols_ = {rtol};
    atol_text_ = format_number(rtol);
  }
  try {
    problem.initial_values(y0_, yp0_);
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
  // The ABI's call fills both; a y'(t0) the problem does not declare is never handed on.
  if (!(info.flags & DK_PROBLEM_HAS_YP0)) std::vector<double>().swap(yp0_);
  std::vector<std::size_t> replaced;
  for (const auto& [word, value] : s.initial_values) {
    const std::size_t i = resolve_component(info, word, "--y0");
    if (!std::isfinite(value)) throw UsageError("--y0: the value of " + word + " is not finite");
    if (std::find(replaced.begin(), replaced.end(), i) != replaced.end())
      throw UsageError("--y0 sets component " + component_name(info, i) + " twice");
    y0_[i] = value;
    replaced.push_back(i);
  }
  saveat_ = s.saveat;
  std::map<std::string, std::string> given;  // canonical key -> as given, for the message
  for (const auto& [key, value] : s.solver_options) {
    const std::string canonical = canonical_option_key(key);
    if (const auto it = given.find(canonical); it != given.end())
      throw UsageError("solver option '" + canonical + "' is given twice (as '" + it->second + "' and '" + key + "')");
    given[canonical] = key;
    extra_strings_.emplace_back(canonical, value);
  }
  for (const auto& [k, v] : extra_strings_) extra_.push_back({k.c_str(), v.c_str()});

  dk_solve_options& o = options_;
  o.struct_size = sizeof o;
  o.t0 = info.t0;
  o.tend = s.tend ? *s.tend : info.tend;
  o.y0 = y0_.data();
  o.yp0 = (info.flags & DK_PROBLEM_HAS_YP0) ? yp0_.data() : nullptr;
  o.nrtol = rtols_.size();
  o.rtol = rtols_.data();
  o.natol = atols_.size();
  o.atol = atols_.data();
  o.h0 = s.h0;
  o.hmin = s.hmin;
  o.hmax = s.hmax;
  o.max_steps = s.max_steps;
  o.output_mode = s.output;
  o.nsaveat = saveat_.size();
  o.saveat = saveat_.data();
  if (s.jacobian == "auto")
    o.jacobian = DK_JACOBIAN_AUTO;
  else if (s.jacobian == "analytic")
    o.jacobian = DK_JACOBIAN_ANALYTIC;
  else if (s.jacobian == "fd")
    o.jacobian = DK_JACOBIAN_FINITE_DIFFERENCE;
  else
    throw UsageError("--jacobian must be auto, analytic or fd");
  if (s.init == "check")
    o.init = DK_INIT_CHECK;
  else if (s.init == "fix")
    o.init = DK_INIT_FIX_ALGEBRAIC;
  else if (s.init == "trust")
    o.init = DK_INIT_TRUST;
  else
    throw UsageError("--init must be check, fix or trust");
  o.index_scaling = s.index_scaling ? 1u : 0u;
  o.suppress_algebraic = s.suppress_algebraic ? 1u : 0u;
  o.ntstops = info.ntstops;
  o.tstops = info.tstops;
  o.nextra = extra_.size();
  o.extra = extra_.empty() ? nullptr : extra_.data();
  if (s.max_events < 0) throw UsageError("--max-events must not be negative");
  o.max_events = s.max_events;
  o.keep_dense = s.dense ? 1u : 0u;
  o.events = nullptr;
  if (s.event_samples < -1 || s.event_samples > max_event_samples)
    throw UsageError("--event-samples must lie in 0.." + std::to_string(max_event_samples));
  o.event_samples = s.event_samples < 0 ? 0 : s.event_samples == 0 ? -1 : s.event_samples;
  o.derivative_check = s.derivative_check ? DK_DERIVATIVE_CHECK_ON : DK_DERIVATIVE_CHECK_OFF;
  variables_ = resolve_variables(problem, s.output_vars);
  if (!s.sensitivities.empty()) {
    SensitivityColumns columns = resolve_sensitivities(problem, s.sensitivities);
    sens_index_ = std::move(columns.index);
    sensitivity_names_ = std::move(columns.names);
    o.nsens = sens_index_.size();
    o.sens_index = sens_index_.data();
    sens_initial_ = initial_sensitivities(problem, sens_index_);
    for (std::size_t k = 0; k < sens_index_.size() && !sens_initial_.empty(); ++k)
      for (const std::size_t i : replaced)
        if (sens_index_[k] >= 0) sens_initial_[k * n + i] = 0.0;  // a value given does not move with p
    o.sens_initial = sens_initial_.empty() ? nullptr : sens_initial_.data();
  }
  o.sens_error_control = s.sensitivity_error_control ? DK_SENS_ERROR_CONTROL_ON : DK_SENS_ERROR_CONTROL_OFF;
  if (s.adjoint) prepare_adjoint(problem, s, replaced);

  // The same checks the solver makes, so the message names the option.
  SolveRequest request;
  std::string why;
  if (!check_capabilities(solver.info(), info, &why, problem.handle().vtbl)) throw UnsupportedProblem(why);
  if (!parse_request(o, info, &request, &why)) throw UsageError(why);
  if (!check_jacobian_request(solver.info(), info, problem.handle().vtbl, request, &why)) throw UsageError(why);
  if (!check_extra_options(solver.info(), request.extra, &why)) throw UsageError(why);
  if (!check_sensitivity_request(solver.info(), info, request, &why)) throw UnsupportedProblem(why);
  if (!check_adjoint_request(solver.info(), info, request, &why)) throw UnsupportedProblem(why);
}

// The C table's calls into the library's Functional: gradients zeroed first, an exception
// kept as the solve's failure.
struct FunctionalCall {
  const Functional* functional;
  std::string* error;
  std::size_t n, np;
  template <class F>
  std::int32_t guarded(F&& f) const {
    try {
      f();
      return 0;
    } catch (const std::exception& e) {
      *error = e.what();
    } catch (...) {
      *error = "the functional threw";
    }
    return 1;
  }
};

namespace {

std::int32_t call_terminal(void* env, const double* y, double* phi, double* dy, double* dp) {
  const auto* c = static_cast<const FunctionalCall*>(env);
  return c->guarded([&] {
    std::fill(dy, dy + c->n, 0.0), std::fill(dp, dp + c->np, 0.0);
    *phi = c->functional->terminal(y, dy, dp);
  });
}
std::int32_t call_running(void* env, double t, const double* y, double* g, double* dy, double* dp) {
  const auto* c = static_cast<const FunctionalCall*>(env);
  return c->guarded([&] {
    std::fill(dy, dy + c->n, 0.0), std::fill(dp, dp + c->np, 0.0);
    *g = c->functional->running(t, y, dy, dp);
  });
}
std::int32_t call_data_term(void* env, std::size_t k, const double* y, double* r, double* dy, double* dp) {
  const auto* c = static_cast<const FunctionalCall*>(env);
  return c->guarded([&] {
    std::fill(dy, dy + c->n, 0.0), std::fill(dp, dp + c->np, 0.0);
    *r = c->functional->data_term(k, y, dy, dp);
  });
}

}  // namespace

void PreparedRun::prepare_adjoint(const loader::ProblemInstance& problem, const RunSettings& s,
                                  const std::vector<std::size_t>& replaced) {
  const std::size_t n = problem.info().n, np = problem.parameter_count();
  if (np == 0)
    throw UsageError("an adjoint gradient is with respect to real parameters, and problem '" +
                     std::string(problem.info().name) + "' declares none");
  if (!s.sensitivities.empty()) throw UsageError("ask for forward sensitivities or an adjoint gradient, not both");
  const Functional& f = *s.adjoint;
  if (!f.data_t.empty() && !f.data_term) throw UsageError("the functional has data times but no data_term");
  call_ = std::make_shared<FunctionalCall>(FunctionalCall{s.adjoint, &functional_error_, n, np});
  functional_ = {sizeof(dk_functional), call_.get(), f.terminal ? &call_terminal : nullptr,
                 f.running ? &call_running : nullptr, f.data_t.size(), f.data_t.empty() ? nullptr : f.data_t.data(),
                 f.data_term ? &call_data_term : nullptr};
  gradient_.assign(np, 0.0);
  gradient_y0_.assign(n, 0.0);
  std::vector<std::int32_t> all(np);
  for (std::size_t k = 0; k < np; ++k) all[k] = static_cast<std::int32_t>(k);
  dy0_dp_ = initial_sensitivities(problem, all);
  for (std::size_t k = 0; k < np && !dy0_dp_.empty(); ++k)
    for (const std::size_t i : replaced) dy0_dp_[k * n + i] = 0.0;  // a value given does not move with p
  options_.adjoint = &functional_;
  options_.gradient = gradient_.data();
  options_.gradient_y0 = gradient_y0_.data();
  options_.functional_value = &functional_value_;
}

std::vector<double> PreparedRun::total_gradient() const {
  std::vector<double> g = gradient_;
  const std::size_t n = gradient_y0_.size();
  for (std::size_t k = 0; k < g.size() && !dy0_dp_.empty(); ++k)
    for (std::size_t i = 0; i < n; ++i) g[k] += gradient_y0_[i] * dy0_dp_[k * n + i];
  return g;
}

dk_result solve_checked(const loader::ProblemInstance& problem, const loader::SolverInstance& solver,
                        const dk_solve_options& options, Trajectory& trajectory, bool with_events,
                        const std::vector<VariableColumn>* variables, const std::atomic<bool>* interrupt) {
  trajectory = Trajectory{};
  trajectory.n = dk_rows_held(&problem.info());
  dk_result result{};
  result.struct_size = sizeof result;
  // Every solve starts from the problem's initial state: a problem keeps its mode (a
  // heater on, a feed switched, an FMU's discrete state) in itself and resets it in
  // initial_values, as docs/authoring/problem.md promises. A PreparedRun read y0 once; a
  // repeated solve (wpd's warm-up and --runs, an ensemble member) must not start in the
  // mode the last one ended in.
  try {
    std::vector<double> y0, yp0;
    problem.initial_values(y0, yp0);
  } catch (const loader::LoadError& e) {
    result.status = DK_STATUS_EVALUATION_FAILURE;
    std::snprintf(result.message, sizeof result.message, "%s", e.what());
    return result;
  }
  std::optional<VariableRecorder> recorder;
  if (variables && !variables->empty()) recorder.emplace(problem, trajectory, *variables);
  dk_output_sink sink = recorder ? recorder->sink() : collect_into(trajectory);
  const dk_event_sink event_sink = recorder ? recorder->event_sink() : collect_events_into(trajectory);
  dk_solve_options o = options;
  o.events = with_events ? &event_sink : nullptr;
  for (std::size_t k = 0; k < o.nsens; ++k)
    trajectory.sensitivity_names.push_back(sensitivity_name(problem.info(), o.sens_index[k]));
  const dk_sens_sink sens_sink = collect_sensitivities_into(trajectory);
  o.sens = o.nsens > 0 ? &sens_sink : nullptr;
  if (interrupt) {
    const InterruptibleProblem watched(problem.handle(), interrupt);
    solver.solve(watched.handle(), o, sink, result);
  } else {
    solver.solve(problem, o, sink, result);
  }
  if (recorder && !recorder->error().empty()) {
    // The solver stopped because the sink said so; the run failed on the model.
    result.status = DK_STATUS_EVALUATION_FAILURE;
    std::snprintf(result.message, sizeof result.message, "%s", recorder->error().c_str());
    return result;
  }
  if (const std::string why = impossible_result(result, trajectory, o, problem.info()); !why.empty()) {
    result.status = DK_STATUS_INTERNAL_ERROR;
    std::snprintf(result.message, sizeof result.message, "solver '%s' (%s) %s", solver.info().name,
                  solver.plugin().file.string().c_str(), why.c_str());
    const std::vector<std::string> names = std::move(trajectory.variable_names);
    trajectory = Trajectory{};
    trajectory.n = dk_rows_held(&problem.info());
    trajectory.variable_names = names;
  }
  return result;
}

bool has_reference_at_time(const loader::ProblemInstance& problem, double t_end) {
  const dk_problem_info& info = problem.info();
  return (info.has_reference && t_end == info.reference_t) || problem.has_reference_at();
}

bool reference_at_end(const loader::ProblemInstance& problem, double t_end, std::vector<double>& yref,
                      std::string* used) {
  const dk_problem_info& info = problem.info();
  if (info.has_reference && t_end == info.reference_t && problem.reference(yref)) {
    if (used) *used = "stored at t = " + format_number(t_end);
    return true;
  }
  if (problem.reference_at(t_end, yref)) {
    if (used) *used = "exact at t = " + format_number(t_end);
    return true;
  }
  return false;
}

std::optional<Accuracy> final_accuracy(const loader::ProblemInstance& problem, const PreparedRun& run, double t_end,
                                       const double* y_end, std::string* used) {
  std::vector<double> yref;
  if (!reference_at_end(problem, t_end, yref, used)) return std::nullopt;
  return accuracy_against(problem, run, yref, y_end);
}

Accuracy accuracy_against(const loader::ProblemInstance& problem, const PreparedRun& run,
                          const std::vector<double>& yref, const double* y_end) {
  const dk_problem_info& info = problem.info();
  const auto n = static_cast<Eigen::Index>(dk_rows_held(&info));
  Eigen::VectorXd rt(n), at(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    rt[i] = run.rtol();
    at[i] = run.atol_at(static_cast<std::size_t>(i));
  }
  return score(Eigen::Map<const Eigen::VectorXd>(y_end, n), Eigen::Map<const Eigen::VectorXd>(yref.data(), n),
               info.scored, rt, at, info.index);
}

std::string scored_components_text(const dk_problem_info& info) {
  const std::size_t rows = dk_rows_held(&info);  // this rank's, with local rows
  std::size_t first = rows, last = 0, count = 0;
  for (std::size_t i = 0; i < rows; ++i)
    if (!info.scored || info.scored[i]) first = std::min(first, i), last = i, ++count;
  bool absolute = false;
  for (std::size_t i = 0; info.scored && i < rows; ++i) absolute |= info.scored[i] == DK_SCORED_ABSOLUTE;
  if (absolute) return count == rows ? "all components, absolute error" : std::to_string(count) + " components";
  if (count == rows) return "all components";
  if (count == last - first + 1) return "components " + std::to_string(first + 1) + "-" + std::to_string(last + 1);
  return std::to_string(count) + " scored components";
}

}  // namespace daekit::api
