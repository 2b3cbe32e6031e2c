// What `daekit fit` was asked, read from its command line and checked: the problem and
// solver, the data and conditions, the estimates with their guesses, bounds and scales,
// the optimiser's settings and where the results go.
#pragma once

#include <daekit/fit/fit.hpp>
#include <optional>
#include <string>
#include <vector>

#include "../cli.hpp"

namespace daekit::host::fit {

struct FitRequest {
  PluginOptions plugins;
  std::string problem_name, solver_name, report = "text", plots_dir, output_file;
  std::vector<std::string> params, solver_opts, data_files;
  std::string conditions_file;
  daekit::fit::FitSettings settings;  // the estimates as named, with guesses, bounds and scales
  double timeout = 0;
  bool in_process = false;
};

// Nullopt after --help; UsageError naming the option for anything malformed (what needs
// the problem, like an unknown parameter, the library refuses before the fit starts).
std::optional<FitRequest> parse_fit_request(int argc, char** argv);

}  // namespace daekit::host::fit
