// The settings of a solve as every command that runs solves takes them (run, wpd,
// ensemble): each option declared here once, with one help text, one check and one place
// it lands in api::RunSettings. A command chooses whether it offers the tolerances and
// the end time (wpd sweeps tolerances its own way) and its own step limit's default.
#pragma once

#include <daekit/api/run_setup.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cli.hpp"

namespace daekit::host {

struct RunOptionChoice {
  bool tolerances = true;  // --rtol, --atol
  bool tend = true;        // --tend
  bool sensitivities = true;  // --sensitivities, --sens-error-control
  std::int64_t max_steps = api::RunSettings{}.max_steps;  // --max-steps' default
};

class RunSettingsOptions {
 public:
  explicit RunSettingsOptions(RunOptionChoice choice = {});
  void add_to(po::options_description& desc);
  // The settings the command line gives (the library's defaults elsewhere); UsageError
  // naming the option for a value only the command line can get wrong.
  api::RunSettings read(const po::variables_map& vm) const;

 private:
  RunOptionChoice choice_;
  double rtol_ = 0, atol_ = 0, tend_ = 0, h0_ = 0, hmin_ = 0, hmax_ = 0;
  std::int64_t max_steps_ = 0, max_events_ = 0;
  int event_samples_ = -1;
  std::string derivative_check_ = "on", jacobian_ = "auto", init_ = "check";
  std::string sensitivities_, sens_error_control_ = "off";
  std::vector<std::string> y0_;
};

// --timeout (run) and --timeout-per-run (wpd, ensemble): finite seconds >= 0 (0: none).
void check_timeout(const char* option, double seconds);

}  // namespace daekit::host
