// The points of a work-precision sweep and how they are run: each in a child process
// (fork), so that a run that exceeds its time budget is killed and a crashing
// plugin cannot take the sweep down, with up to `jobs` children at once on each rank
// (farm/task_farm.hpp: locally, or spread over the ranks of an MPI launch).
#pragma once

#include <daekit/loader/registry.hpp>
#include <csignal>
#include <functional>
#include <limits>
#include <optional>
#include <map>
#include <string>
#include <vector>

#include <daekit/api/run_setup.hpp>
#include <daekit/api/sweep_settings.hpp>

#include "error_measures.hpp"

namespace daekit::host::farm {
class Farm;
}

namespace daekit::host::wpd {
using namespace daekit::api;  // the run settings are the library's

struct Point {
  std::string problem, solver;
  std::string instance;  // the problem as the sweep names it: its name, or "fekete-N=40" (instances.hpp)
  std::string setup;  // the series' name (the solver's, from --solvers)
  std::map<std::string, std::string> setup_options;  // all that defines the setup (Setup::all_options)
  double sweep_tol = 0;  // the sweep's tolerance; rtol is it times the setup's factor
  std::map<std::string, std::string> params;
  double rtol = 0, atol = 0;
  RunSettings settings;  // tolerances filled in
  std::string refused;   // why the solver cannot take this problem at all (recorded, not run)
  // For a problem without a reference of its own: the reference solver's y(tend), to
  // score scd/mescd against (empty: the problem's reference, if any).
  std::vector<double> final_reference;
  // `--error sens`: the reference solver's dy/dq at tend (n x columns, column-major).
  std::vector<double> sens_reference;
  std::string sens_reference_source;  // the run it came from, in words
};

struct PointResult {
  Point point;
  std::string status = "internal_error", message;
  int runs = 0;
  double wall_median = std::numeric_limits<double>::quiet_NaN(), wall_min = wall_median, wall_max = wall_median;
  dk_stats stats{};
  double scd = std::numeric_limits<double>::quiet_NaN(), mescd = scd, final_error = scd, l2 = scd;
  // DiffEqDevTools' measures (error_measures.hpp), NaN unless asked for.
  double final_mean = scd, l2_steps = scd, linf_steps = scd, l2_dense = scd, linf_dense = scd;
  double sens_error = scd;  // `sens` (error_measures.hpp)
  // Which reference each measure was computed against, by measure name (results.json).
  std::map<std::string, std::string> references_used;
  std::string host;  // the machine that ran it (empty: not run, e.g. refused)
  int rank = 0;      // the MPI rank that ran it
  bool ok() const { return status == "success"; }
};

struct SweepOptions {
  int runs = 1;
  int jobs = 1;              // points each rank runs at once
  int coordinator_jobs = 1;  // points rank 0 runs itself under MPI (0: it only hands them out)
  double silence_limit_s = 60;  // under MPI: a rank silent this long while running a point is given up
  double timeout_per_run = 0;  // seconds, 0 = none
  std::vector<Measure> measures{Measure::final_relative};
  // For measures at times where the problem has no exact solution (the solver's steps):
  // the reference solver, run in the point's child at those times.
  std::string reference_solver;
  double reference_tol = api::default_reference_tol;
  bool quiet = false;
  // The row of point i from an earlier, interrupted sweep (--resume): not run again.
  std::function<std::optional<PointResult>(std::size_t)> earlier;
  // Called as each point finishes, in the order they finish (the journal).
  std::function<void(std::size_t, const PointResult&)> finished;
  // Set by a signal handler: running points are killed, the rest are left "interrupted".
  const volatile std::sig_atomic_t* interrupted = nullptr;
};


// Reference trajectories of the reference solver, by problem, for problems without an
// exact solution: on l2_grid() for `l2`, on uniform_times() for `L2` and `Linf`.
struct ReferenceTrajectories {
  std::map<std::string, Trajectory> l2_grid, uniform;
};

// Runs the points through `farm` (locally, or over the ranks of an MPI launch). sizes: the
// problems' n, to start the costliest points first.
std::vector<PointResult> run_sweep(farm::Farm& farm, const std::vector<Point>& points, const SweepOptions& options,
                                   const ReferenceTrajectories& references,
                                   const std::map<std::string, std::size_t>& sizes);

}  // namespace daekit::host::wpd
