#include "point_task.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <daekit/api/sweep_settings.hpp>
#include <daekit/status.hpp>

#include "../run_settings_json.hpp"
#include "../stats_json.hpp"
#include "journal.hpp"
#include "reference.hpp"
#include "../farm/task_kinds.hpp"

namespace daekit::host::wpd {
namespace {

using nlohmann::json;

// A run shorter than this gets an untimed warm-up run before it.
constexpr double warm_up_limit_s = 1.0;

// What the run needs of a point (the rest stays with rank 0).
json point_to_json(const Point& p) {
  return {{"problem", p.problem}, {"solver", p.solver}, {"params", p.params},
          {"settings", settings_to_json(p.settings)}, {"final_reference", p.final_reference},
          {"sens_reference", p.sens_reference}, {"sens_reference_source", p.sens_reference_source}};
}

Point point_from_json(const json& j) {
  Point p;
  p.problem = j.at("problem");
  p.solver = j.at("solver");
  p.params = j.at("params").get<std::map<std::string, std::string>>();
  p.settings = settings_from_json(j.at("settings"));
  p.final_reference = j.at("final_reference").get<std::vector<double>>();
  p.sens_reference = j.at("sens_reference").get<std::vector<double>>();
  p.sens_reference_source = j.at("sens_reference_source").get<std::string>();
  return p;
}

Trajectory trajectory_from_json(const json& j) {
  Trajectory t;
  t.t = j.at("t").get<std::vector<double>>();
  t.y = j.at("y").get<std::vector<double>>();
  t.n = j.at("n").get<std::size_t>();
  return t;
}

// How the child scores a point: the measures and, for times where the problem has no
// exact solution, the reference solver and the shared trajectories.
struct Scoring {
  std::vector<Measure> measures;
  std::string reference_solver;
  double reference_tol = api::default_reference_tol;
  const Trajectory* l2_reference = nullptr;       // on l2_grid()
  const Trajectory* uniform_reference = nullptr;  // on uniform_times()
};

// The reference at every time of `times`, row after row: the problem's exact solution
// when it has one, else `computed` when it was made at these very times, else the
// reference solver run now. Empty when none can be had; *used says which it was.
std::vector<double> reference_at_times(const loader::Registry& registry, const loader::ProblemInstance& problem,
                                       const Point& p, const std::vector<double>& times, const Scoring& scoring,
                                       const Trajectory* computed, std::string* used) {
  std::vector<double> rows, row;
  if (problem.has_reference_at()) {
    for (double t : times) {
      if (!problem.reference_at(t, row)) return {};
      rows.insert(rows.end(), row.begin(), row.end());
    }
    *used = "the problem's exact solution";
    return rows;
  }
  if (computed && computed->t == times) {
    *used = scoring.reference_solver + " at tol " + format_number(scoring.reference_tol) + " (cached)";
    return computed->y;
  }
  const loader::Plugin* solver = registry.find(scoring.reference_solver);
  if (!solver) return {};
  Trajectory run;
  std::string why;
  if (!run_at_times(*registry.find(p.problem), *solver, p.params, scoring.reference_tol, p.settings.init, times, run,
                    &why))
    return {};
  *used = scoring.reference_solver + " at tol " + format_number(scoring.reference_tol) + " at these times";
  return run.y;
}

// An untimed run of the point with another output than the timed runs had (every step,
// or given times), for the measures that read those points. Empty when it fails.
// Points at the time of an event that reset the state are left out: the solution has two
// values there, and a reference at a time a little off the solver's event time holds the
// other one (a bouncing ball's velocity: an "error" of twice the speed).
Trajectory extra_run(const loader::ProblemInstance& problem, const loader::SolverInstance& solver, const Point& p,
                     dk_output_mode output, const std::vector<double>& times) {
  RunSettings settings = p.settings;
  settings.output = output;
  settings.saveat = times;
  PreparedRun prepared(problem, solver, settings);
  Trajectory run;
  const dk_result result = solve_checked(problem, solver, prepared.options(), run, /*with_events=*/true);
  if (!is_success(static_cast<Status>(result.status))) return {};
  if (run.marked_t.empty()) return run;
  Trajectory kept;
  kept.n = run.n;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    if (std::find(run.marked_t.begin(), run.marked_t.end(), run.t[k]) != run.marked_t.end()) continue;
    kept.t.push_back(run.t[k]);
    kept.y.insert(kept.y.end(), run.y.begin() + static_cast<std::ptrdiff_t>(k * run.n),
                  run.y.begin() + static_cast<std::ptrdiff_t>((k + 1) * run.n));
  }
  return kept;
}

// The measures of a successful point beyond the test set's scd (error_measures.hpp).
void score(const loader::Registry& registry, const loader::ProblemInstance& problem,
           const loader::SolverInstance& solver, const Point& p, const PreparedRun& prepared,
           const Trajectory& timed, const Scoring& scoring, json& out) {
  const dk_problem_info& info = problem.info();
  const std::size_t n = info.n;
  const double t_end = timed.t.back();
  const double* y_end = timed.y.data() + (timed.t.size() - 1) * n;
  // The test set's scd whatever the measures: the summary table reads it.
  auto a = final_accuracy(problem, prepared, t_end, y_end);
  if (!a && p.final_reference.size() == n && t_end == info.tend)
    a = accuracy_against(problem, prepared, p.final_reference, y_end);
  if (a) {
    out["scd"] = a->scd;
    out["mescd"] = a->mescd;
    out["final_error"] = a->max_rel_error;
  }
  if (wants(scoring.measures, Measure::final_mean)) {
    std::vector<double> yref;
    std::string used;
    if (reference_at_end(problem, t_end, yref, &used)) {
      used = "the problem's reference, " + used;
    } else if (p.final_reference.size() == n && t_end == info.tend) {
      yref = p.final_reference;
      used = "the reference solver's y(tend)";
    }
    if (yref.size() == n) {
      out["final_mean"] = mean_abs_error(y_end, yref.data(), n);
      out["error_references"]["final-mean"] = used;
    }
  }
  const std::size_t columns = timed.sensitivity_count();
  if (wants(scoring.measures, Measure::sens) && columns > 0 && p.sens_reference.size() == n * columns &&
      timed.s.size() == timed.t.size() * n * columns && t_end == info.tend) {
    out["sens_error"] = sensitivity_error(timed.s.data() + timed.s.size() - n * columns, p.sens_reference, n);
    out["error_references"]["sens"] = p.sens_reference_source;
  }
  if (wants(scoring.measures, Measure::l2_reference)) {
    std::string used;
    const auto yref = reference_at_times(registry, problem, p, timed.t, scoring, scoring.l2_reference, &used);
    if (yref.size() == timed.y.size()) {
      out["l2"] = rms_error(timed.y, yref);
      out["error_references"]["l2"] = used;
    }
  }
  if (wants_steps(scoring.measures)) {
    const Trajectory steps = extra_run(problem, solver, p, DK_OUTPUT_EVERY_STEP, {});
    std::string used;
    const auto yref = steps.t.empty() ? std::vector<double>{}
                                      : reference_at_times(registry, problem, p, steps.t, scoring, nullptr, &used);
    if (!steps.t.empty() && yref.size() == steps.y.size()) {
      if (wants(scoring.measures, Measure::l2_steps)) out["l2_steps"] = rms_error(steps.y, yref);
      if (wants(scoring.measures, Measure::linf_steps)) out["linf_steps"] = max_abs_error(steps.y, yref);
      out["error_references"]["steps"] = used;
    }
  }
  if (wants_dense(scoring.measures)) {
    const std::vector<double> times = uniform_times(info.t0, t_end);
    const Trajectory dense = extra_run(problem, solver, p, DK_OUTPUT_SAVEAT, times);
    std::string used;
    const auto yref = dense.t.empty()
                          ? std::vector<double>{}
                          : reference_at_times(registry, problem, p, dense.t, scoring, scoring.uniform_reference, &used);
    if (!dense.t.empty() && yref.size() == dense.y.size()) {
      if (wants(scoring.measures, Measure::l2_dense)) out["L2_dense"] = rms_error(dense.y, yref);
      if (wants(scoring.measures, Measure::linf_dense)) out["Linf_dense"] = max_abs_error(dense.y, yref);
      out["error_references"]["dense"] = used;
    }
  }
}

// The work of one point, in the child.
json measure(const loader::Registry& registry, const Point& p, int runs, const Scoring& scoring) {
  json out;
  try {
    loader::ProblemInstance problem(*registry.find(p.problem), p.params);
    loader::SolverInstance solver(*registry.find(p.solver));
    RunSettings settings = p.settings;
    // The timed runs record what `final` and `l2` read: the end, or the 100 times of l2.
    if (wants(scoring.measures, Measure::l2_reference)) {
      settings.output = DK_OUTPUT_SAVEAT;
      settings.saveat = scoring.l2_reference ? scoring.l2_reference->t
                                             : l2_grid(problem.info().t0, settings.tend.value_or(problem.info().tend));
    }
    PreparedRun prepared(problem, solver, settings);
    std::vector<double> walls;
    dk_result result{};
    Trajectory trajectory;
    // The host times each solve call. One untimed warm-up run comes first (page faults,
    // lazy binding and cold caches make a first run of a small problem 3-5x slower); a
    // run that takes more than a second is warm enough and counts as the first timed one.
    bool warm = false;
    while (static_cast<int>(walls.size()) < runs) {
      const auto start = std::chrono::steady_clock::now();
      // Events go unrecorded here: a point measures the solve, the run command shows them.
      result = solve_checked(problem, solver, prepared.options(), trajectory, /*with_events=*/false);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const bool ok = is_success(static_cast<Status>(result.status));
      if (ok && !warm && wall < warm_up_limit_s) {
        warm = true;
        continue;
      }
      warm = true;
      walls.push_back(wall);
      if (!ok) break;
    }
    std::sort(walls.begin(), walls.end());
    out["status"] = std::string(status_name(static_cast<Status>(result.status)));
    out["message"] = std::string(result.message);
    out["runs"] = walls.size();
    out["wall_median"] = walls.size() % 2 ? walls[walls.size() / 2]
                                          : 0.5 * (walls[walls.size() / 2 - 1] + walls[walls.size() / 2]);
    out["wall_min"] = walls.front();
    out["wall_max"] = walls.back();
    const dk_stats& s = result.stats;
    out["stats"] = stats_to_json(s, /*with_beside=*/true);
    if (is_success(static_cast<Status>(result.status)) && !trajectory.t.empty())
      score(registry, problem, solver, p, prepared, trajectory, scoring, out);
  } catch (const std::exception& e) {
    out["status"] = "invalid_input";
    out["message"] = e.what();
  }
  return out;
}

}  // namespace

std::string reference_key(const std::string& problem) { return "reference:" + problem; }
std::string uniform_reference_key(const std::string& problem) { return "uniform-reference:" + problem; }

json trajectory_to_json(const Trajectory& t) { return {{"t", t.t}, {"y", t.y}, {"n", t.n}}; }

farm::Task point_task(const Point& p, const SweepOptions& o, std::size_t n, bool with_l2_reference,
                      bool with_uniform_reference) {
  farm::Task t;
  t.kind = point_task_kind;
  json measures = json::array();
  for (Measure m : o.measures) measures.push_back(measure_name(m));
  t.input = {{"point", point_to_json(p)},
             {"runs", o.runs},
             {"measures", measures},
             {"reference_solver", o.reference_solver},
             {"reference_tol", o.reference_tol}};
  if (with_l2_reference) {
    t.input["reference"] = reference_key(p.instance);
    t.shared.push_back(reference_key(p.instance));
  }
  if (with_uniform_reference) {
    t.input["uniform_reference"] = uniform_reference_key(p.instance);
    t.shared.push_back(uniform_reference_key(p.instance));
  }
  t.budget_s = o.timeout_per_run > 0 ? o.timeout_per_run * o.runs + warm_up_limit_s : 0.0;
  // Work grows with the size and, for a method of order ~4, as rtol^(-1/4): a guess that
  // only has to order the points (the longest first), not predict them.
  t.expected_cost = static_cast<double>(n + 1) * std::pow(1.0 / std::max(p.rtol, 1e-300), 0.25);
  return t;
}

json execute_point(const loader::Registry& registry, const json& input, const farm::SharedData& shared) {
  const Point p = point_from_json(input.at("point"));
  Scoring scoring;
  std::string measures;
  for (const auto& m : input.value("measures", json::array())) {
    if (!measures.empty()) measures += ',';
    measures += m.get<std::string>();
  }
  scoring.measures = parse_error_measures(measures.empty() ? "final" : measures);
  scoring.reference_solver = input.value("reference_solver", "");
  scoring.reference_tol = input.value("reference_tol", api::default_reference_tol);
  std::optional<Trajectory> l2_reference, uniform_reference;
  if (input.contains("reference"))
    l2_reference = trajectory_from_json(shared.at(input["reference"].get<std::string>()));
  if (input.contains("uniform_reference"))
    uniform_reference = trajectory_from_json(shared.at(input["uniform_reference"].get<std::string>()));
  scoring.l2_reference = l2_reference ? &*l2_reference : nullptr;
  scoring.uniform_reference = uniform_reference ? &*uniform_reference : nullptr;
  return measure(registry, p, input.at("runs").get<int>(), scoring);
}

void read_outcome(const farm::TaskOutcome& outcome, PointResult& r, double timeout) {
  r.host = outcome.host;
  r.rank = outcome.rank;
  const farm::RunReport report = farm::report_of(outcome, timeout);
  r.status = report.status;
  r.message = report.message;
  if (!report.has_result()) return;
  const json& j = report.result;
  r.runs = j.value("runs", 0);
  r.wall_median = number_or_nan(j, "wall_median");
  r.wall_min = number_or_nan(j, "wall_min");
  r.wall_max = number_or_nan(j, "wall_max");
  if (j.contains("stats")) r.stats = stats_from_json(j["stats"]);
  read_accuracy(j, r);
}

// Worker ranks can be sent points.
const farm::TaskKindRegistration point_kind(point_task_kind, execute_point);

}  // namespace daekit::host::wpd
