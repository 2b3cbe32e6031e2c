#include "request.hpp"

#include <cmath>

#include <daekit/api/sweep_settings.hpp>

#include "../farm/task_farm.hpp"
#include "../run_options.hpp"

namespace daekit::host::wpd {
namespace {

void check_values(const Request& r, const po::variables_map& vm) {
  if (r.problems.empty() || (r.solvers.empty() && r.setup_texts.empty()) || r.out_dir.empty())
    throw UsageError("--problem, --solvers (or --setup) and --out are required");
  if (r.runs < 1) throw UsageError("--runs must be at least 1");
  check_timeout("timeout-per-run", r.timeout);
  if (vm.count("atol-scale") && !(r.atol_scale > 0 && std::isfinite(r.atol_scale)))
    throw UsageError("--atol-scale must be a positive finite number");
  if (vm.count("reference-tol") && !(r.reference_tol > 0 && r.reference_tol < 1))
    throw UsageError("--reference-tol must lie in (0, 1)");
  if (vm.count("target-scd") && !(std::isfinite(r.target_scd) && r.target_scd > 0))
    throw UsageError("--target-scd must be a positive finite number of digits");
  if (r.resume && r.overwrite) throw UsageError("choose one of --resume and --overwrite");
  for (std::size_t i = 0; i < r.solvers.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (r.solvers[i] == r.solvers[k])
        throw UsageError("--solvers names '" + r.solvers[i] + "' twice; to run one solver with two option sets, "
                         "name each with --setup NAME=SOLVER:key=value");
}

}  // namespace

std::optional<Request> parse_request(int argc, char** argv) {
  Request r;
  std::string solvers;
  std::string& tols = r.tolerances_text;
  std::string& error = r.error_text;
  RunSettingsOptions run_settings({.tolerances = false, .tend = false, .max_steps = api::sweep_max_steps});
  po::options_description desc("daekit wpd options");
  desc.add_options()("help,h", "show this help")(
      "problem,p", po::value(&r.problems)->composing(), "problem plugin (repeatable)")(
      "solvers,s", po::value(&solvers), "solver plugins, comma-separated")(
      "solver-opt", po::value(&r.solver_opts)->composing(), "solver option SOLVER:key=value (repeatable)")(
      "setup", po::value(&r.setup_texts)->composing(),
      "a named series NAME=SOLVER[:key=value,...][@rtol*F]: solver options, run settings "
      "(suppress-algebraic, index-scaling, jacobian, init) and a tolerance factor (repeatable)")(
      "param", po::value(&r.params)->composing(),
      "problem parameter key=value for every problem, or PROBLEM:key=value for one of them (repeatable)")(
      "param-sweep", po::value(&r.param_sweeps)->composing(),
      "[PROBLEM:]KEY=V1,V2,...: each value an instance of the problem (\"fekete-N=40\"), and a scaling diagram "
      "of the time to the target accuracy against the parameter")(
      "tols", po::value(&tols), "tolerances FROM:TO[:PER_DECADE] or a comma list (rtol; default 1e-4:1e-8)")(
      "atol-scale", po::value(&r.atol_scale),
      "atol = scale * rtol (default: the problem's suggestion, else atol = rtol)")(
      "runs", po::value(&r.runs), "runs per point; the median wall time is reported (default 1)")(
      "error", po::value(&error),
      "accuracy measures, comma-separated: final (or scd: the test set's, at tend), l2 (100 times vs. the "
      "reference solver), both (final,l2), DiffEqDevTools' final-mean, l2-steps, linf-steps, L2, Linf, and "
      "sens (dy/dq at tend against the reference solver's, with --sensitivities) (default final)")(
      "out,o", po::value(&r.out_dir), "output folder (results.csv, results.json, SVG and PNG diagrams)")(
      // A hung point must not hang the sweep: 10 minutes per run unless told otherwise.
      "timeout-per-run", po::value(&r.timeout),
      "seconds a run may take before it is killed and recorded as failed (default 600; 0: no limit)")(
      "reference-solver", po::value(&r.reference_solver), "solver of the references (default rodas5p; radau5 for --error sens' dy/dq)")(
      "reference-tol", po::value(&r.reference_tol), "tolerance of the L2 reference trajectory (default 1e-12)")(
      "cache-dir", po::value(&r.cache_dir), "where reference trajectories are cached (default OUT/cache)")(
      "target-scd", po::value(&r.target_scd), "scd of the summary table (default: the best every solver reached)")(
      "quiet,q", "no progress bar")(
      "resume", "continue a sweep in --out: points it finished with the same settings are not run again")(
      "overwrite", "replace the results of an earlier sweep in --out");
  run_settings.add_to(desc);
  add_farm_options(desc, r.farm, "points");
  add_plugin_options(desc, r.plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm,
                          "usage: daekit wpd --problem P [--problem Q] --solvers a,b,c --tols 1e-4:1e-10 --out DIR"))
    return std::nullopt;
  r.solvers = split_list(solvers, ',');
  if (!solvers.empty() && r.solvers.empty()) throw UsageError("--solvers names no solver");
  r.quiet = vm.count("quiet") > 0;
  r.resume = vm.count("resume") > 0;
  r.overwrite = vm.count("overwrite") > 0;
  r.reference_solver_named = vm.count("reference-solver") > 0;
  check_values(r, vm);
  r.measures = parse_error_measures(error);
  r.beyond_final = r.measures.size() > 1 || r.measures.front() != Measure::final_relative;
  check_farm_options(r.farm, vm);
  if (auto* launch = farm::current_launch()) farm::announce_coordinator(*launch, r.farm.silence_limit_s);
  r.settings = run_settings.read(vm);
  if (wants(r.measures, Measure::sens) && r.settings.sensitivities.empty())
    throw UsageError("--error sens scores the sensitivities --sensitivities names (all, parameter names, y0, y0:NAME)");
  r.tolerances = api::parse_tolerances(tols);
  for (int i = 0; i < argc; ++i) r.command_line += (i ? " " : "daekit ") + std::string(argv[i]);
  return r;
}

}  // namespace daekit::host::wpd
