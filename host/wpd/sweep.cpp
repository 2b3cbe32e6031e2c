#include "sweep.hpp"

#include <cmath>
#include <sstream>

#include "../farm/task_farm.hpp"
#include "point_task.hpp"
#include "progress.hpp"

namespace daekit::host::wpd {

std::vector<PointResult> run_sweep(farm::Farm& farm, const std::vector<Point>& points, const SweepOptions& options,
                                   const ReferenceTrajectories& references,
                                   const std::map<std::string, std::size_t>& sizes) {
  std::vector<PointResult> results(points.size());
  std::vector<std::size_t> to_run;
  std::vector<bool> pending(points.size(), false);
  for (std::size_t i = 0; i < points.size(); ++i) {
    results[i].point = points[i];
    if (!points[i].refused.empty()) {  // capability mismatch: a row of its own, nothing to run
      results[i].status = "unsupported_problem";
      results[i].message = points[i].refused;
    } else if (auto earlier = options.earlier ? options.earlier(i) : std::nullopt) {
      results[i] = *earlier;  // finished by an earlier run of this sweep (--resume)
    } else {
      results[i].status = "interrupted";
      to_run.push_back(i);
      pending[i] = true;
    }
  }
  for (const auto& [problem, trajectory] : references.l2_grid)
    farm.share(reference_key(problem), trajectory_to_json(trajectory));
  for (const auto& [problem, trajectory] : references.uniform)
    farm.share(uniform_reference_key(problem), trajectory_to_json(trajectory));
  std::vector<farm::Task> tasks;
  for (const auto& p : points) {
    const auto size = sizes.find(p.instance);
    tasks.push_back(point_task(p, options, size == sizes.end() ? 1 : size->second, references.l2_grid.count(p.instance) > 0,
                               references.uniform.count(p.instance) > 0));
  }
  std::vector<ProgressPoint> progress_points;
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::ostringstream label;
    label << points[i].instance << " / " << points[i].setup << " / tol " << points[i].rtol;
    progress_points.push_back({label.str(), points[i].instance + "/" + points[i].setup, points[i].rtol, pending[i]});
  }
  ProgressBar progress(std::move(progress_points), options.jobs * farm.ranks(), options.quiet);
  farm::FarmOptions run;
  run.jobs = options.jobs;
  run.coordinator_jobs = options.coordinator_jobs;
  run.silence_limit_s = options.silence_limit_s;
  run.interrupted = options.interrupted;
  run.started = [&](std::size_t i) { progress.started(i); };
  run.tick = [&] { progress.tick(); };
  run.finished = [&](std::size_t i, const farm::TaskOutcome& outcome) {
    read_outcome(outcome, results[i], options.timeout_per_run);
    if (options.finished) options.finished(i, results[i]);
    progress.finished(i, results[i].status);
  };
  farm.run(tasks, to_run, run);  // an interrupted sweep's running points die; their rows stay "interrupted"
  progress.finish();
  return results;
}

}  // namespace daekit::host::wpd
