// What `daekit wpd` was asked to do, read from its command line and checked (parse),
// before any plugin is loaded.
#pragma once

#include <daekit/api/run_setup.hpp>
#include <daekit/api/sweep_settings.hpp>
#include <optional>
#include <string>
#include <vector>

#include "../cli.hpp"
#include "error_measures.hpp"

namespace daekit::host::wpd {

struct Request {
  PluginOptions plugins;
  std::vector<std::string> problems, solver_opts, params, param_sweeps, setup_texts, solvers;
  std::vector<double> tolerances;
  std::string tolerances_text = "1e-4:1e-8", error_text = "final";  // as given, for the record
  std::vector<Measure> measures;
  bool beyond_final = false;  // a measure beyond the test set's own: every problem needs a reference
  std::string out_dir, reference_solver = api::default_reference_solver, cache_dir;
  bool reference_solver_named = false;
  // `--error sens`' reference: --reference-solver when named, else radau5, whose
  // collocation keeps the linear invariants of s exactly; rodas5p's difference-quotient
  // second-derivative term lets them drift by ~1e-10 of s's largest value over a long
  // span (Robertson's dy3/dk to 1e11: 1e-4 relative to the final value at rtol 1e-10).
  std::string sens_reference_solver() const { return reference_solver_named ? reference_solver : "radau5"; }
  double atol_scale = 0, timeout = 600, reference_tol = api::default_reference_tol, target_scd = 0;
  int runs = 1;
  FarmSettings farm;
  api::RunSettings settings;  // every point's, but its tolerances and what its setup changes
  bool quiet = false, resume = false, overwrite = false;
  std::string command_line;
};

// Nothing when --help was asked (the help is printed); UsageError for a bad command line.
std::optional<Request> parse_request(int argc, char** argv);

}  // namespace daekit::host::wpd
