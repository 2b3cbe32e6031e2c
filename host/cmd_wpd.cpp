// `daekit wpd`: work-precision diagrams for any mix of solver and problem plugins.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include <daekit/sdk/closest_names.hpp>
#include <daekit/solve_request.hpp>

#include "cli.hpp"
#include "commands.hpp"
#include "child_process.hpp"
#include "farm/task_kinds.hpp"
#include "signal_flag.hpp"
#include "wpd/instances.hpp"
#include "wpd/journal.hpp"
#include "wpd/outputs.hpp"
#include "wpd/reference.hpp"
#include "wpd/setups.hpp"
#include "wpd/sweep.hpp"

namespace daekit::host {
namespace {

double parse_positive(const std::string& s, const char* what) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !(v > 0) || !std::isfinite(v))
    throw UsageError(std::string(what) + ": expected a positive number, got '" + s + "'");
  return v;
}

// "1e-4:1e-10" (one per decade), "1e-4:1e-10:2" (two per decade), or "1e-4,1e-6,1e-8".
std::vector<double> parse_tolerances(const std::string& spec) {
  std::vector<double> tols;
  if (spec.find(':') == std::string::npos) {
    for (const auto& item : split_list(spec, ',')) tols.push_back(parse_positive(item, "--tols"));
  } else {
    const auto parts = split_list(spec, ':');
    if (parts.size() < 2 || parts.size() > 3) throw UsageError("--tols expects FROM:TO[:PER_DECADE]");
    const double from = parse_positive(parts[0], "--tols"), to = parse_positive(parts[1], "--tols");
    const double per_decade = parts.size() == 3 ? parse_positive(parts[2], "--tols per decade") : 1.0;
    // A fraction per decade would round to fewer points than the span covers.
    if (per_decade != std::round(per_decade) || per_decade > 100)
      throw UsageError("--tols: points per decade must be a whole number from 1 to 100, got " + parts[2]);
    const double decades = std::log10(from / to);
    const int steps = static_cast<int>(std::round(std::abs(decades) * per_decade));
    for (int k = 0; k <= steps; ++k)
      tols.push_back(std::pow(10.0, std::log10(from) - (steps ? decades * k / steps : 0.0)));
  }
  if (tols.empty()) throw UsageError("--tols gives no tolerance");
  return tols;
}

// What the solver says of a setup's options in a solve of one step: "" when it takes
// them, else why not (its message for invalid_input).
std::string refused_setup(const loader::ProblemInstance& problem, const loader::SolverInstance& solver,
                          api::RunSettings settings) {
  settings.max_steps = 1;
  const PreparedRun run(problem, solver, settings);
  Trajectory trajectory;
  const dk_result r = solve_checked(problem, solver, run.options(), trajectory, false);
  return r.status == DK_STATUS_INVALID_INPUT ? std::string(r.message) : "";
}

}  // namespace

int command_wpd(int argc, char** argv) {
  PluginOptions plugins;
  std::vector<std::string> problems, solver_opts, params, param_sweeps, setup_texts;
  std::string init = "check", solvers, tols = "1e-4:1e-8", error = "final", out_dir, reference_solver = "rodas5p", cache_dir;
  // A hung point must not hang the sweep: 10 minutes per run unless told otherwise.
  double atol_scale = 0, timeout = 600, reference_tol = 1e-12, target_scd = 0;
  int runs = 1;
  FarmSettings farm_settings;
  std::int64_t max_steps = 1000000;
  po::options_description desc("daekit wpd options");
  desc.add_options()("help,h", "show this help")(
      "problem,p", po::value(&problems)->composing(), "problem plugin (repeatable)")(
      "solvers,s", po::value(&solvers), "solver plugins, comma-separated")(
      "solver-opt", po::value(&solver_opts)->composing(), "solver option SOLVER:key=value (repeatable)")(
      "setup", po::value(&setup_texts)->composing(),
      "a named series NAME=SOLVER[:key=value,...][@rtol*F]: solver options, run settings "
      "(suppress-algebraic, index-scaling, jacobian, init) and a tolerance factor (repeatable)")(
      "param", po::value(&params)->composing(),
      "problem parameter key=value for every problem, or PROBLEM:key=value for one of them (repeatable)")(
      "param-sweep", po::value(&param_sweeps)->composing(),
      "[PROBLEM:]KEY=V1,V2,...: each value an instance of the problem (\"fekete-N=40\"), and a scaling diagram "
      "of the time to the target accuracy against the parameter")(
      "tols", po::value(&tols), "tolerances FROM:TO[:PER_DECADE] or a comma list (rtol; default 1e-4:1e-8)")(
      "atol-scale", po::value(&atol_scale), "atol = scale * rtol (default: the problem's suggestion, else atol = rtol)")(
      "runs", po::value(&runs), "runs per point; the median wall time is reported (default 1)")(
      "error", po::value(&error),
      "accuracy measures, comma-separated: final (or scd: the test set's, at tend), l2 (100 times vs. the "
      "reference solver), both (final,l2), and DiffEqDevTools' final-mean, l2-steps, linf-steps, L2, Linf "
      "(default final)")(
      "out,o", po::value(&out_dir), "output folder (results.csv, results.json, SVG and PNG diagrams)")(
      "timeout-per-run", po::value(&timeout), "seconds a run may take before it is killed and recorded as failed (default 600; 0: no limit)")(
      "max-steps", po::value(&max_steps), "step limit per run (default 1000000)")(
      "reference-solver", po::value(&reference_solver), "solver of the L2 reference trajectory (default rodas5p)")(
      "reference-tol", po::value(&reference_tol), "tolerance of the L2 reference trajectory (default 1e-12)")(
      "cache-dir", po::value(&cache_dir), "where reference trajectories are cached (default OUT/cache)")(
      "target-scd", po::value(&target_scd), "scd of the summary table (default: the best every solver reached)")(
      "init", po::value(&init),
      "initial values: check (default), fix (compute consistent ones), trust; for every run and the reference")(
      "quiet,q", "no progress bar")(
      "resume", "continue a sweep in --out: points it finished with the same settings are not run again")(
      "overwrite", "replace the results of an earlier sweep in --out");
  add_farm_options(desc, farm_settings, "points");
  add_plugin_options(desc, plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm,
                          "usage: daekit wpd --problem P [--problem Q] --solvers a,b,c --tols 1e-4:1e-10 --out DIR"))
    return 0;
  if (problems.empty() || (solvers.empty() && setup_texts.empty()) || out_dir.empty())
    throw UsageError("--problem, --solvers (or --setup) and --out are required");
  const std::vector<wpd::Measure> measures = wpd::parse_error_measures(error);
  // Anything beyond the test set's own measure needs a reference for every problem.
  const bool beyond_final = measures.size() > 1 || measures.front() != wpd::Measure::final_relative;
  if (runs < 1) throw UsageError("--runs must be at least 1");
  check_farm_options(farm_settings, vm);
  if (auto* launch = farm::current_launch()) farm::announce_coordinator(*launch, farm_settings.silence_limit_s);
  const int jobs = farm_settings.jobs;
  if (!(timeout >= 0) || !std::isfinite(timeout))
    throw UsageError("--timeout-per-run must be a finite number of seconds >= 0 (0: no limit)");
  if (vm.count("atol-scale") && !(atol_scale > 0 && std::isfinite(atol_scale)))
    throw UsageError("--atol-scale must be a positive finite number");
  if (vm.count("reference-tol") && !(reference_tol > 0 && reference_tol < 1))
    throw UsageError("--reference-tol must lie in (0, 1)");
  if (init != "check" && init != "fix" && init != "trust") throw UsageError("--init must be check, fix or trust");
  if (vm.count("target-scd") && !(std::isfinite(target_scd) && target_scd > 0))
    throw UsageError("--target-scd must be a positive finite number of digits");

  loader::Registry registry = discover_plugins(plugins);
  const auto solver_list = split_list(solvers, ',');
  if (!solvers.empty() && solver_list.empty()) throw UsageError("--solvers names no solver");
  for (std::size_t i = 0; i < solver_list.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (solver_list[i] == solver_list[k])
        throw UsageError("--solvers names '" + solver_list[i] + "' twice; to run one solver with two option sets, "
                         "name each with --setup NAME=SOLVER:key=value");
  const std::vector<wpd::Setup> setups = wpd::make_setups(solver_list, setup_texts, solver_opts);
  std::vector<std::string> solver_names;  // the plugins the setups use, once each
  for (const auto& s : setups)
    if (std::find(solver_names.begin(), solver_names.end(), s.solver) == solver_names.end()) solver_names.push_back(s.solver);
  for (const auto& p : problems) require_plugin(registry, p, DK_KIND_PROBLEM);
  for (const auto& s : solver_names) require_plugin(registry, s, DK_KIND_SOLVER);
  const wpd::Instances instances = wpd::make_instances(problems, params, param_sweeps);
  std::vector<std::string> labels;
  std::map<std::string, const wpd::Instance*> instance_of;
  for (const auto& instance : instances.list) {
    labels.push_back(instance.label);
    instance_of[instance.label] = &instance;
  }
  const auto tolerances = parse_tolerances(tols);

  // Every point, checked before anything runs (an unknown option fails here, not in a point),
  // and what the sweep needs to know of each problem. Plugin code: it runs in a child, so a
  // plugin that crashes when loaded ends the command with a message.
  std::vector<wpd::Point> points;
  for (const auto& instance : instances.list)
    for (const auto& setup : setups)
      for (double tol : tolerances) {
        wpd::Point p;
        p.problem = instance.problem;
        p.instance = instance.label;
        p.solver = setup.solver;
        p.setup = setup.name;
        p.setup_options = setup.all_options();
        p.params = instance.params;
        p.sweep_tol = tol;
        p.rtol = tol * setup.tol_factor;
        p.settings.rtol = p.rtol;
        if (atol_scale > 0) p.settings.atol = atol_scale * p.rtol;
        p.settings.max_steps = max_steps;
        p.settings.init = init;
        p.settings.solver_options = setup.solver_options;
        for (const auto& [k, v] : setup.run_settings) {
          if (k == "suppress-algebraic") p.settings.suppress_algebraic = v == "true";
          if (k == "index-scaling") p.settings.index_scaling = v == "true";
          if (k == "jacobian") p.settings.jacobian = v;
          if (k == "init") p.settings.init = v;
        }
        points.push_back(p);
      }
  const ChildOutcome surveyed = run_in_child(
      [&] {
        nlohmann::json out;
        std::set<std::string> probed;
        try {
          for (const auto& p : points) {
            loader::ProblemInstance pi(*registry.find(p.problem), p.params);
            loader::SolverInstance si(*registry.find(p.solver));
            std::string why;
            if (!check_capabilities(si.info(), pi.info(), &why)) {
              out["points"].push_back({{"refused", why}});  // an unsupported row, the sweep goes on
            } else {
              PreparedRun check(pi, si, p.settings);
              out["points"].push_back({{"atol", check.atol_at(0)}});
              // A setup whose options the solver refuses as a whole (min_stages above
              // start_stages) is refused here, once, not run to invalid_input at every point.
              if (probed.insert(p.setup).second)
                if (const std::string refusal = refused_setup(pi, si, p.settings); !refusal.empty()) {
                  out = {{"error", "--setup " + p.setup + " (" + p.solver + "): " + refusal}};
                  return out.dump();
                }
            }
            const auto& i = pi.info();
            out["problems"][p.instance] = {
                {"t0", i.t0}, {"tend", i.tend}, {"n", i.n}, {"exact", pi.has_reference_at()},
                {"own_reference_at_tend", (i.has_reference && i.reference_t == i.tend) || pi.has_reference_at()}};
          }
        } catch (const std::exception& e) {
          out = {{"error", e.what()}};
        }
        return out.dump();
      },
      timeout);
  nlohmann::json survey;
  if (surveyed.finished()) survey = nlohmann::json::parse(surveyed.payload, nullptr, false);
  if (!survey.is_object() || survey.is_discarded())
    throw UsageError("the plugins could not be loaded to check the points: their code " + surveyed.describe(timeout));
  if (survey.contains("error")) throw UsageError(survey["error"].get<std::string>());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& row = survey["points"][i];
    if (row.contains("refused")) points[i].refused = row["refused"].get<std::string>();
    if (row.contains("atol")) points[i].atol = row["atol"].get<double>();
  }
  const auto problem_facts = survey["problems"];

  if (vm.count("resume") && vm.count("overwrite")) throw UsageError("choose one of --resume and --overwrite");
  std::filesystem::create_directories(out_dir);
  const wpd::FolderLock lock(out_dir);
  {
    std::error_code ec;
    const bool earlier = std::filesystem::exists(std::filesystem::path(out_dir) / wpd::Journal::file_name, ec) ||
                         std::filesystem::exists(std::filesystem::path(out_dir) / "results.json", ec);
    if (earlier && !vm.count("resume") && !vm.count("overwrite"))
      throw UsageError("--out " + out_dir + " holds the results of an earlier sweep: --resume to continue it, "
                       "--overwrite to replace it, or choose another folder");
  }
  std::ostringstream scoring;
  scoring.precision(17);
  for (const auto m : measures) scoring << wpd::measure_name(m) << ",";
  scoring << ";" << (vm.count("reference-solver") || beyond_final ? reference_solver : "") << "@" << reference_tol;
  wpd::Journal journal(out_dir, vm.count("resume") > 0);
  if (cache_dir.empty()) cache_dir = (std::filesystem::path(out_dir) / "cache").string();
  wpd::SweepOptions options;
  options.runs = runs;
  options.jobs = jobs;
  options.coordinator_jobs = farm_settings.coordinator_jobs;
  options.silence_limit_s = farm_settings.silence_limit_s;
  options.timeout_per_run = timeout;
  options.measures = measures;
  options.reference_solver = reference_solver;
  options.reference_tol = reference_tol;
  options.quiet = vm.count("quiet") > 0;
  // Reference trajectories for the measures on fixed times, for the problems without an
  // exact solution (those are scored against it in each point).
  wpd::ReferenceTrajectories references;
  std::ostringstream reference_text, error_reference_text;
  auto reference_for = [&](const std::string& problem, const std::vector<double>& grid, const char* what) {
    const wpd::Instance& instance = *instance_of.at(problem);
    wpd::ReferenceSpec spec{instance.problem, reference_solver, instance.params, reference_tol, grid, init};
    bool cached = false;
    Trajectory t = wpd::reference_trajectory(registry, spec, cache_dir, timeout, &cached);
    if (!options.quiet)
      std::cerr << "daekit wpd: " << what << " reference for " << problem << " "
                << (cached ? "read from the cache" : "computed") << " (" << reference_solver << " at " << reference_tol
                << ")\n";
    return t;
  };
  if (beyond_final) require_plugin(registry, reference_solver, DK_KIND_SOLVER);
  for (const auto& problem : labels) {
    const auto& facts = problem_facts[problem];
    if (facts["exact"].get<bool>()) continue;
    const double t0 = facts["t0"].get<double>(), tend = facts["tend"].get<double>();
    if (wpd::wants(measures, wpd::Measure::l2_reference))
      references.l2_grid[problem] = reference_for(problem, wpd::l2_grid(t0, tend), "L2");
    if (wpd::wants_dense(measures))
      references.uniform[problem] = reference_for(problem, wpd::uniform_times(t0, tend), "dense");
  }
  {
    bool exact = false, solver = false;
    for (const auto& problem : labels) (problem_facts[problem]["exact"].get<bool>() ? exact : solver) = true;
    if (wpd::wants(measures, wpd::Measure::l2_reference) && solver)
      reference_text << reference_solver << " at tol " << reference_tol << ", " << 100 << " times";
    if (beyond_final) {
      if (solver) error_reference_text << reference_solver << " at tol " << reference_tol;
      if (solver && exact) error_reference_text << "; ";
      if (exact) error_reference_text << "the exact solution for the problems that have one";
    }
  }

  // Problems without a reference of their own at tend are scored against the reference
  // solver's y(tend) when a reference solver is named (or computed anyway for --error l2).
  std::ostringstream final_reference_text;
  if (vm.count("reference-solver") || beyond_final) {
    require_plugin(registry, reference_solver, DK_KIND_SOLVER);
    for (const auto& problem : labels) {
      const auto& facts = problem_facts[problem];
      if (facts["own_reference_at_tend"].get<bool>()) continue;
      const double tend = facts["tend"].get<double>();
      const std::size_t n = facts["n"].get<std::size_t>();
      Trajectory trajectory;
      if (auto it = references.l2_grid.find(problem); it != references.l2_grid.end()) {
        trajectory = it->second;
      } else if (auto u = references.uniform.find(problem); u != references.uniform.end()) {
        trajectory = u->second;
      } else {
        const wpd::Instance& instance = *instance_of.at(problem);
        wpd::ReferenceSpec spec{instance.problem, reference_solver, instance.params, reference_tol, {tend}, init};
        bool cached = false;
        trajectory = wpd::reference_trajectory(registry, spec, cache_dir, timeout, &cached);
        if (!options.quiet)
          std::cerr << "daekit wpd: final reference for " << problem << " " << (cached ? "read from the cache" : "computed")
                    << " (" << reference_solver << " at " << reference_tol << ")\n";
      }
      const std::vector<double> y_end(trajectory.y.end() - static_cast<std::ptrdiff_t>(n), trajectory.y.end());
      for (auto& p : points)
        if (p.instance == problem) p.final_reference = y_end;
      final_reference_text << (final_reference_text.tellp() > 0 ? "; " : "") << problem << ": " << reference_solver
                           << " at tol " << reference_tol << " (the problem has no reference of its own)";
    }
  }

  std::vector<std::string> keys;
  for (const auto& p : points) keys.push_back(wpd::point_key(p, runs, scoring.str()));
  options.earlier = [&](std::size_t i) { return journal.earlier(keys[i], points[i]); };
  options.finished = [&](std::size_t i, const wpd::PointResult& r) { journal.append(keys[i], r); };
  farm::Farm farm(registry, plugins, farm::all_task_kinds(), farm::current_launch());
  std::map<std::string, std::size_t> sizes;
  for (const auto& problem : labels) sizes[problem] = problem_facts[problem]["n"].get<std::size_t>();
  std::vector<wpd::PointResult> results;
  {
    // SIGINT and SIGTERM end the sweep in order: the running points are killed, the
    // finished ones are written, and --resume can go on from there.
    const InterruptFlag interrupt;
    options.interrupted = interrupt.flag();
    results = wpd::run_sweep(farm, points, options, references, sizes);
  }

  wpd::SweepInfo info;
  info.problems = labels;
  info.problem_plugins = problems;
  info.parameter_sweeps = instances.sweeps;
  info.solvers = solver_names;
  for (const auto& s : setups) info.setups.push_back(s.name);
  info.tolerances = tols;
  info.error = error;
  info.measures = measures;
  info.runs = runs;
  info.jobs = jobs;
  info.mpi_ranks = farm.ranks();
  {
    std::set<std::string> hosts;
    for (const auto& r : results)
      if (!r.host.empty()) hosts.insert(r.host);
    info.ranks_per_host = hosts.empty() ? 1 : (info.mpi_ranks + static_cast<int>(hosts.size()) - 1) / static_cast<int>(hosts.size());
  }
  info.target_scd = target_scd;
  info.reference = reference_text.str();
  info.error_reference = error_reference_text.str();
  info.final_reference = final_reference_text.str();
  for (int i = 0; i < argc; ++i) info.command_line += (i ? " " : "daekit ") + std::string(argv[i]);
  info.settings = {{"init", init},
                   {"atol_scale", atol_scale > 0 ? nlohmann::json(atol_scale) : nlohmann::json("the problem's")},
                   {"max_steps", max_steps},
                   {"timeout_per_run_s", timeout},
                   {"runs", runs},
                   {"warm_up", "one untimed run before the timed ones, unless it took more than 1 s"}};
  const auto dir = std::filesystem::path(out_dir);
  wpd::write_csv((dir / "results.csv").string(), results);
  wpd::write_json((dir / "results.json").string(), results, info, registry);
  const bool drawn = wpd::write_plots(out_dir, results, info, std::cerr);
  std::size_t failed = 0, unfinished = 0;
  for (const auto& r : results) {
    failed += !r.ok();
    unfinished += r.status == "interrupted";
  }
  if (unfinished > 0) {
    std::cerr << "daekit wpd: interrupted: " << results.size() - unfinished << " of " << results.size()
              << " points finished and are written to " << out_dir << "; run the same command with --resume to finish\n";
    return 130;
  }
  if (drawn)
    std::cout << "daekit wpd: " << results.size() << " points (" << failed << " failed) written to " << out_dir << "\n";
  else
    std::cerr << "daekit wpd: " << results.size() << " points (" << failed << " failed) written to " << out_dir
              << ", but not every diagram (above)\n";
  if (wpd::wants(measures, wpd::Measure::final_relative)) wpd::print_summary(std::cout, results, info);
  // The results are written; a diagram that could not be drawn still fails the command.
  return drawn ? 0 : 1;
}

}  // namespace daekit::host
