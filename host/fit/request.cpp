#include "request.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "../report.hpp"
#include "../run_options.hpp"

namespace daekit::host::fit {
namespace {

double number(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || std::isnan(v)) throw UsageError(what + ": '" + text + "' is not a number");
  return v;
}

// "a=1,b=2" (and repeated options) into name -> text, each name once.
std::map<std::string, std::string> assignments(const std::vector<std::string>& items, const char* option) {
  std::vector<std::string> pieces;
  for (const auto& item : items)
    for (const auto& piece : split_list(item, ',')) pieces.push_back(piece);
  std::map<std::string, std::string> out;
  for (const auto& piece : pieces) {
    const auto eq = piece.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(std::string("--") + option + " expects NAME=VALUE, got '" + piece + "'");
    if (!out.emplace(piece.substr(0, eq), piece.substr(eq + 1)).second)
      throw UsageError(std::string("--") + option + " names " + piece.substr(0, eq) + " twice");
  }
  return out;
}

// The estimates with what --initial, --bounds and --log say of them; each of those may
// name only an estimate.
std::vector<daekit::fit::Estimate> estimates_of(const std::string& names, const std::vector<std::string>& initial,
                                                const std::vector<std::string>& bounds, const std::string& log) {
  std::vector<daekit::fit::Estimate> out;
  for (const auto& name : split_variable_names(names, "estimate")) {
    daekit::fit::Estimate e;
    e.name = name;
    out.push_back(e);
  }
  if (out.empty()) throw UsageError("--estimate needs at least one name");
  const bool all = std::any_of(out.begin(), out.end(), [](const daekit::fit::Estimate& e) { return e.name == "all"; });
  // With "all", any parameter may be named (the library checks that it exists).
  auto find = [&](const std::string& name, const char* option) -> daekit::fit::Estimate& {
    for (auto& e : out)
      if (e.name == name) return e;
    if (!all) throw UsageError(std::string("--") + option + " names " + name + ", which --estimate does not");
    daekit::fit::Estimate e;
    e.name = name;
    out.push_back(e);
    return out.back();
  };
  for (const auto& [name, text] : assignments(initial, "initial")) {
    const double v = number(text, "--initial " + name);
    if (!std::isfinite(v)) throw UsageError("--initial " + name + ": the guess must be finite");
    find(name, "initial").initial = v;
  }
  for (const auto& [name, text] : assignments(bounds, "bounds")) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) throw UsageError("--bounds " + name + " expects LOW:HIGH, got '" + text + "'");
    daekit::fit::Estimate& e = find(name, "bounds");
    // An empty side is no bound there ("0:" is >= 0).
    if (colon > 0) e.lower = number(text.substr(0, colon), "--bounds " + name);
    if (colon + 1 < text.size()) e.upper = number(text.substr(colon + 1), "--bounds " + name);
  }
  if (log == "all")
    for (auto& e : out) e.log_scale = true;  // also "all"'s, which its parameters inherit
  else
    for (const auto& name : split_variable_names(log, "log")) find(name, "log").log_scale = true;
  return out;
}

}  // namespace

std::optional<FitRequest> parse_fit_request(int argc, char** argv) {
  FitRequest r;
  RunSettingsOptions run_settings({.tolerances = true, .tend = true, .sensitivities = false});
  std::string estimate, log;
  std::vector<std::string> initial, bounds;
  daekit::fit::FitSettings& s = r.settings;
  po::options_description desc("daekit fit options");
  desc.add_options()("help,h", "show this help")("problem,p", po::value(&r.problem_name), "problem plugin name")(
      "solver,s", po::value(&r.solver_name)->default_value("radau5"), "solver plugin name (it computes the sensitivities)")(
      "param", po::value(&r.params)->composing(), "problem parameter key=value (repeatable): the values not estimated")(
      "solver-opt", po::value(&r.solver_opts)->composing(), "solver option key=value (repeatable)")(
      "data", po::value(&r.data_files)->composing(),
      "measurements: CSV with the header t,name,value,sigma (repeatable: one experiment per file, named by the "
      "file's name without extension)")(
      "conditions", po::value(&r.conditions_file),
      "each experiment's parameters and initial values: CSV with the header experiment,NAME,... (NAME a real "
      "parameter or y0:COMPONENT; an empty cell keeps the problem's value)")(
      "estimate", po::value(&estimate),
      "what to estimate: real parameters (all: every one) and y0:COMPONENT, comma-separated")(
      "initial", po::value(&initial)->composing(), "first guesses NAME=VALUE,... (default: the problem's values)")(
      "bounds", po::value(&bounds)->composing(), "bounds NAME=LOW:HIGH,... (a side left empty is unbounded)")(
      "log", po::value(&log), "estimate these on a log scale (positive, steps relative to the value): names or all")(
      "method", po::value(&s.method), "levenberg_marquardt (default) or dogleg: Ceres Solver's trust-region methods")(
      "gradient", po::value(&s.gradient),
      "forward (sensitivities, the trust-region methods), adjoint (the cost's gradient by the solver's adjoint, "
      "L-BFGS, no bounds), or auto (default: adjoint where the solver has it and the estimates outnumber the "
      "measurements)")(
      "max-iterations", po::value(&s.max_iterations), "of the optimiser, per start (default 100)")(
      "function-tolerance", po::value(&s.function_tolerance), "converged when the cost changes less, relatively (default 1e-12)")(
      "parameter-tolerance", po::value(&s.parameter_tolerance), "converged when a step is smaller, relatively (default 1e-10)")(
      "gradient-tolerance", po::value(&s.gradient_tolerance), "converged when the gradient's max-norm is smaller (default 1e-14)")(
      "starts", po::value(&s.starts), "starts of the optimiser: the first guess, then points drawn in the bounds (default 1)")(
      "seed", po::value(&s.seed), "seed of the drawn starts (default 1)")(
      "confidence", po::value(&s.confidence), "level of the confidence intervals (default 0.95)")(
      "plots", po::value(&r.plots_dir), "draw each experiment's data (with error bars) against the model into DIR")(
      "output,o", po::value(&r.output_file), "write the report as JSON to FILE")(
      "report", po::value(&r.report), "summary format on stdout: text or json")(
      "in-process", "run the plugins in this process (for debuggers and profilers; no --timeout)")(
      "timeout", po::value(&r.timeout), "seconds the fit may take; then it is killed, status 'timeout'")(
      "verbose,v", "show the plugins' notes on stderr");
  run_settings.add_to(desc);
  add_plugin_options(desc, r.plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm,
                          "usage: daekit fit --problem P --data FILE.csv --estimate p1,p2 [--solver S --rtol R ...]"))
    return std::nullopt;
  if (r.problem_name.empty()) throw UsageError("--problem is required");
  if (r.data_files.empty()) throw UsageError("--data is required: the measurements to fit");
  if (!vm.count("estimate")) throw UsageError("--estimate is required: what to estimate");
  s.run = run_settings.read(vm);
  s.estimate = estimates_of(estimate, initial, bounds, log);
  if (r.report != "text" && r.report != "json") throw UsageError("--report must be text or json");
  if (vm.count("output")) {
    if (r.output_file.empty()) throw UsageError("--output needs a file name");
    check_writable(r.output_file);
  }
  if (vm.count("plots") && r.plots_dir.empty()) throw UsageError("--plots needs a folder");
  r.in_process = vm.count("in-process") > 0;
  if (vm.count("timeout") && (!std::isfinite(r.timeout) || r.timeout <= 0))
    throw UsageError("--timeout must be a positive number of seconds");
  if (vm.count("timeout") && r.in_process) throw UsageError("--timeout needs the fit in a child process: drop --in-process");
  loader::show_plugin_notes(vm.count("verbose") > 0);
  return r;
}

}  // namespace daekit::host::fit
