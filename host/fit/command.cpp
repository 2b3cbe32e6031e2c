// `daekit fit`: parameter estimation from measurements (docs/fit.md). The plugins run in
// a child process by default, as in `daekit run`: a crash or a hang ends the child, and
// the parent reports it.
#include <daekit/daekit.hpp>
#include <daekit/fit/fit.hpp>
#include <fstream>
#include <iostream>

#include "../checked_file.hpp"
#include "../plugin_output.hpp"
#include "../report.hpp"
#include "../child_process.hpp"
#include "plots.hpp"
#include "report.hpp"
#include "request.hpp"

namespace daekit::host {
namespace {

using fit::FitRequest;

std::vector<daekit::fit::Experiment> experiments_of(const FitRequest& request) {
  std::vector<daekit::fit::Experiment> out;
  for (const auto& file : request.data_files) out.push_back(daekit::fit::read_experiment(file));
  if (!request.conditions_file.empty()) daekit::fit::read_conditions(request.conditions_file, out);
  return out;
}

int fit_and_report(const FitRequest& request) {
  PluginOutputToStderr plugin_output(request.report == "json");
  const std::vector<daekit::fit::Experiment> experiments = experiments_of(request);
  loader::Registry registry = discover_plugins(request.plugins);
  const loader::Plugin& problem_plugin = require_plugin(registry, request.problem_name, DK_KIND_PROBLEM);
  const loader::Plugin& solver_plugin = require_plugin(registry, request.solver_name, DK_KIND_SOLVER);
  ProblemHandle problem;
  try {
    problem = ProblemHandle(std::make_shared<const loader::ProblemInstance>(
        problem_plugin, parse_key_values(request.params, "--param")));
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
  const SolverHandle solver(solver_plugin);
  daekit::fit::FitSettings settings = request.settings;
  settings.run.solver_options = parse_key_values(request.solver_opts, "--solver-opt");
  const daekit::fit::FitResult result = daekit::fit::fit(problem, solver, experiments, settings);
  bool plots_ok = true;
  // A folder that cannot be written costs the plots, never the fit's report.
  if (!request.plots_dir.empty() && !result.experiments.empty()) try {
      plots_ok = fit::write_fit_plots(request.plots_dir, result,
                                      daekit::fit::model_curves(problem, solver, experiments, settings, result.estimates),
                                      std::cerr);
    } catch (const std::exception& e) {
      std::cerr << "daekit fit: no plots: " << e.what() << "\n";
      plots_ok = false;
    }
  const nlohmann::json report = fit::fit_to_json(result, request);
  plugin_output.restore();
  if (!request.output_file.empty())
    write_file_checked(request.output_file, [&](std::ostream& o) { o << report.dump(2) << "\n"; });
  if (request.report == "json")
    std::cout << report.dump(2) << "\n";
  else
    fit::print_fit(result, request, std::cout);
  if (!result.success()) {
    std::cerr << "daekit fit: " << result.status << ": " << result.message << "\n";
    return 1;
  }
  return plots_ok ? 0 : 1;
}


int report_lost_fit(const FitRequest& request, const ChildOutcome& end) {
  const auto [status, message] = lost_child(
      end, request.timeout, "the fit of problem '" + request.problem_name + "' with solver '" + request.solver_name + "'");
  if (request.report == "json") {
    std::cout << lost_child_json(status, message, request.problem_name, request.solver_name, end.signal).dump(2) << "\n";
  } else {
    std::cout << "problem     " << request.problem_name << "\nstatus      " << status << "\n";
  }
  std::cerr << "daekit fit: " << status << ": " << message << "\n";
  return 1;
}

}  // namespace

int fit_command(int argc, char** argv) {
  const std::optional<FitRequest> parsed = fit::parse_fit_request(argc, argv);
  if (!parsed) return 0;
  const FitRequest& request = *parsed;
  return run_isolated("fit", request.report == "json", request.in_process, request.timeout,
                      [&] { return fit_and_report(request); },
                      [&](const ChildOutcome& end) { return report_lost_fit(request, end); });
}

}  // namespace daekit::host

// The module's entry (host/fit_module.cpp opens it).
extern "C" __attribute__((visibility("default"))) int daekit_command_fit(int argc, char** argv) {
  return daekit::host::fit_command(argc, argv);
}
