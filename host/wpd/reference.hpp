// The dense reference trajectory for the L2 error: one tight-tolerance run of a
// chosen solver on a fixed grid of times, computed once and cached on disk under
// a key made of everything it depends on (problem, parameters, solver, their
// versions, tolerance, grid), so that a change of any of them recomputes it.
#pragma once

#include <daekit/loader/registry.hpp>
#include <map>
#include <string>
#include <vector>

#include "sweep.hpp"

namespace daekit::host::wpd {

struct ReferenceSpec {
  std::string problem, solver;
  std::map<std::string, std::string> params;
  double tol = 1e-12;
  std::vector<double> grid;
  std::string init = "check";  // the initial-value policy (check, fix, trust), as for the sweep
  // `--error sens`: these sensitivities too, in the error test (Trajectory::s).
  std::vector<std::string> sensitivities;
};

// 100 times over the span: logarithmically spaced when the span starts at 0 and is long
// (t_end >= 1e4, e.g. Robertson on [0, 1e11]), else uniformly.
std::vector<double> l2_grid(double t0, double tend, std::size_t count = 100);

// One run of `solver` at rtol = tol (and atol = tol unless the problem scales its own)
// with output at `times`, and the sensitivities named, in the error test: what a
// reference is made of. In this process. False, with *failure saying why, when the run
// fails or misses a time.
bool run_at_times(const loader::Plugin& problem_plugin, const loader::Plugin& solver_plugin,
                  const std::map<std::string, std::string>& params, double tol, const std::string& init,
                  const std::vector<double>& times, Trajectory& out, std::string* failure,
                  const std::vector<std::string>& sensitivities = {});

// Runs in a child process with a time limit (timeout_s, 0: none). Throws UsageError when
// the reference solver fails, crashes or exceeds the limit.
Trajectory reference_trajectory(const loader::Registry& registry, const ReferenceSpec& spec,
                                const std::string& cache_dir, double timeout_s, bool* from_cache);

}  // namespace daekit::host::wpd
