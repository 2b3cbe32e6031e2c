#include "sweep.hpp"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <daekit/status.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../child_process.hpp"
#include "../cli.hpp"
#include "journal.hpp"
#include "progress.hpp"

namespace daekit::host::wpd {
namespace {

using nlohmann::json;

// A run shorter than this gets an untimed warm-up run before it.
constexpr double warm_up_limit_s = 1.0;


// The work of one point, in the child: `runs` solves, the median wall time, accuracy.
json measure(const loader::Registry& registry, const Point& p, const SweepOptions& o, const Trajectory* reference) {
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
    while (static_cast<int>(walls.size()) < o.runs) {
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

struct Child {
  ChildProcess process;
  std::size_t index = 0;
};

Child start(const loader::Registry& registry, const Point& p, std::size_t index, const SweepOptions& o,
            const Trajectory* reference) {
  const double budget = o.timeout_per_run > 0 ? o.timeout_per_run * o.runs + warm_up_limit_s : 0.0;
  return Child{ChildProcess([&] { return measure(registry, p, o, reference).dump(); }, budget), index};
}

void finish(Child& c, PointResult& r, bool timed_out, double timeout) {
  const ChildOutcome end = c.process.finish(timed_out);
  if (end.end == ChildOutcome::End::timed_out) {
    std::ostringstream m;
    m << "killed after the timeout of " << timeout << " s per run";
    r.status = "timeout";
    r.message = m.str();
    return;
  }
  json j;
  try {
    j = json::parse(end.payload);
  } catch (const std::exception&) {
    r.status = "internal_error";
    r.message = end.end == ChildOutcome::End::crashed ? "the run " + end.describe(timeout)
                                                      : "the run ended without a result (" + end.describe(timeout) + ")";
    return;
  }
  r.status = j.value("status", "internal_error");
  r.message = j.value("message", "");
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

}  // namespace

double l2_error(const std::vector<double>& y, const std::vector<double>& yref) {
  double sum = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) sum += (y[i] - yref[i]) * (y[i] - yref[i]);
  return y.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(y.size()));
}

std::vector<PointResult> run_sweep(const loader::Registry& registry, const std::vector<Point>& points,
                                   const SweepOptions& options, const std::map<std::string, Trajectory>& references) {
  std::vector<PointResult> results(points.size());
  std::vector<bool> to_run(points.size(), false);
  std::size_t done = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    results[i].point = points[i];
    if (!points[i].refused.empty()) {  // capability mismatch: a row of its own, nothing to run
      results[i].status = "unsupported_problem";
      results[i].message = points[i].refused;
      ++done;
    } else if (auto earlier = options.earlier ? options.earlier(i) : std::nullopt) {
      results[i] = *earlier;  // finished by an earlier run of this sweep (--resume)
      ++done;
    } else {
      results[i].status = "interrupted";
      to_run[i] = true;
    }
  }
  auto label = [&](std::size_t i) {
    std::ostringstream s;
    s << points[i].problem << " / " << points[i].setup << " / tol " << points[i].rtol;
    return s.str();
  };
  std::vector<ProgressPoint> progress_points;
  for (std::size_t i = 0; i < points.size(); ++i)
    progress_points.push_back({label(i), points[i].problem + "/" + points[i].setup, points[i].rtol, to_run[i]});
  ProgressBar progress(std::move(progress_points), options.jobs, options.quiet);
  std::vector<Child> running;
  std::size_t next = 0;
  auto stop_requested = [&] { return options.interrupted && *options.interrupted; };
  while (done < points.size() && !stop_requested()) {
    while (next < points.size() && !to_run[next]) ++next;
    while (next < points.size() && static_cast<int>(running.size()) < std::max(1, options.jobs)) {
      if (!to_run[next]) {
        ++next;
        continue;
      }
      auto it = references.find(points[next].problem);
      const Trajectory* ref = options.l2 && it != references.end() ? &it->second : nullptr;
      running.push_back(start(registry, points[next], next, options, ref));
      progress.started(next);
      ++next;
    }
    std::vector<pollfd> fds;
    for (const auto& c : running) fds.push_back({c.process.fd(), POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    progress.tick();
    const auto now = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < running.size();) {
      Child& c = running[k];
      const bool closed = (fds[k].revents & (POLLIN | POLLHUP)) && !c.process.read_available();
      const bool timed_out = !closed && c.process.expired(now);
      if (closed || timed_out) {
        finish(c, results[c.index], timed_out, options.timeout_per_run);
        ++done;
        if (options.finished) options.finished(c.index, results[c.index]);
        progress.finished(c.index, results[c.index].status);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
        fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    }
  }
  running.clear();  // an interrupted sweep's running points die here; their rows stay "interrupted"
  progress.finish();
  return results;
}

}  // namespace daekit::host::wpd
