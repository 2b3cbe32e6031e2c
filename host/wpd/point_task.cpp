#include "point_task.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <daekit/status.hpp>

#include "../run_settings_json.hpp"
#include "journal.hpp"

namespace daekit::host::wpd {
namespace {

using nlohmann::json;

// A run shorter than this gets an untimed warm-up run before it.
constexpr double warm_up_limit_s = 1.0;

// What the run needs of a point (the rest stays with rank 0).
json point_to_json(const Point& p) {
  return {{"problem", p.problem}, {"solver", p.solver}, {"params", p.params},
          {"settings", settings_to_json(p.settings)}, {"final_reference", p.final_reference}};
}

Point point_from_json(const json& j) {
  Point p;
  p.problem = j.at("problem");
  p.solver = j.at("solver");
  p.params = j.at("params").get<std::map<std::string, std::string>>();
  p.settings = settings_from_json(j.at("settings"));
  p.final_reference = j.at("final_reference").get<std::vector<double>>();
  return p;
}

Trajectory trajectory_from_json(const json& j) {
  Trajectory t;
  t.t = j.at("t").get<std::vector<double>>();
  t.y = j.at("y").get<std::vector<double>>();
  t.n = j.at("n").get<std::size_t>();
  return t;
}

// The work of one point, in the child.
json measure(const loader::Registry& registry, const Point& p, int runs, const Trajectory* reference) {
  json out;
  try {
    loader::ProblemInstance problem(*registry.find(p.problem), p.params);
    loader::SolverInstance solver(*registry.find(p.solver));
    RunSettings settings = p.settings;
    if (reference) {
      settings.output = DK_OUTPUT_SAVEAT;
      settings.saveat = reference->t;
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
    out["stats"] = {s.steps, s.accepted, s.rejected, s.nfev, s.nfev_jac, s.njac, s.nlu, s.nsolve, s.nnewton};
    if (is_success(static_cast<Status>(result.status)) && !trajectory.t.empty()) {
      const std::size_t n = problem.info().n;
      const double t_end = trajectory.t.back();
      const double* y_end = trajectory.y.data() + (trajectory.t.size() - 1) * n;
      auto a = final_accuracy(problem, prepared, t_end, y_end);
      if (!a && p.final_reference.size() == n && t_end == problem.info().tend)
        a = accuracy_against(problem, prepared, p.final_reference, y_end);
      if (a) {
        out["scd"] = a->scd;
        out["mescd"] = a->mescd;
        out["final_error"] = a->max_rel_error;
      }
      if (reference && trajectory.y.size() == reference->y.size()) out["l2"] = l2_error(trajectory.y, reference->y);
    }
  } catch (const std::exception& e) {
    out["status"] = "invalid_input";
    out["message"] = e.what();
  }
  return out;
}

}  // namespace

std::string reference_key(const std::string& problem) { return "reference:" + problem; }

json trajectory_to_json(const Trajectory& t) { return {{"t", t.t}, {"y", t.y}, {"n", t.n}}; }

farm::Task point_task(const Point& p, const SweepOptions& o, std::size_t n, bool with_reference) {
  farm::Task t;
  t.kind = point_task_kind;
  t.input = {{"point", point_to_json(p)}, {"runs", o.runs}};
  if (with_reference) {
    t.input["reference"] = reference_key(p.problem);
    t.shared.push_back(reference_key(p.problem));
  }
  t.budget_s = o.timeout_per_run > 0 ? o.timeout_per_run * o.runs + warm_up_limit_s : 0.0;
  // Work grows with the size and, for a method of order ~4, as rtol^(-1/4): a guess that
  // only has to order the points (the longest first), not predict them.
  t.expected_cost = static_cast<double>(n + 1) * std::pow(1.0 / std::max(p.rtol, 1e-300), 0.25);
  return t;
}

json execute_point(const loader::Registry& registry, const json& input, const farm::SharedData& shared) {
  const Point p = point_from_json(input.at("point"));
  std::optional<Trajectory> reference;
  if (input.contains("reference")) reference = trajectory_from_json(shared.at(input["reference"].get<std::string>()));
  return measure(registry, p, input.at("runs").get<int>(), reference ? &*reference : nullptr);
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
  if (j.contains("stats")) {
    const auto& s = j["stats"];
    r.stats.steps = s[0], r.stats.accepted = s[1], r.stats.rejected = s[2], r.stats.nfev = s[3];
    r.stats.nfev_jac = s[4], r.stats.njac = s[5], r.stats.nlu = s[6], r.stats.nsolve = s[7], r.stats.nnewton = s[8];
  }
  r.scd = number_or_nan(j, "scd");
  r.mescd = number_or_nan(j, "mescd");
  r.final_error = number_or_nan(j, "final_error");
  r.l2 = number_or_nan(j, "l2");
}

}  // namespace daekit::host::wpd
