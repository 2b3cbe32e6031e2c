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

// --param key=value applies to every problem of the sweep, --param PROBLEM:key=value to
// that one (and wins over a key given for all); a PROBLEM that is not swept is refused.
std::map<std::string, std::map<std::string, std::string>> parameters_per_problem(
    const std::vector<std::string>& items, const std::vector<std::string>& problems) {
  std::vector<std::string> shared;
  std::map<std::string, std::vector<std::string>> own;
  for (const auto& item : items) {
    const auto eq = item.find('='), colon = item.find(':');
    if (colon == std::string::npos || (eq != std::string::npos && colon > eq)) {
      shared.push_back(item);
      continue;
    }
    const std::string problem = item.substr(0, colon);
    if (std::find(problems.begin(), problems.end(), problem) == problems.end()) {
      std::string msg = "--param " + item + " names the problem '" + problem + "', which is not swept";
      const auto near = daekit::closest_names(problem, problems);
      if (!near.empty()) msg += "; did you mean '" + near.front() + "'?";
      throw UsageError(msg + " (the sweep's problems: --problem)");
    }
    own[problem].push_back(item.substr(colon + 1));
  }
  const auto common = parse_key_values(shared, "--param");
  std::map<std::string, std::map<std::string, std::string>> out;
  for (const auto& problem : problems) {
    auto mine = parse_key_values(own[problem], ("--param " + problem + ":").c_str());
    mine.insert(common.begin(), common.end());  // keeps the problem's own value for a key given for all
    out[problem] = mine;
  }
  return out;
}

}  // namespace

int command_wpd(int argc, char** argv) {
  PluginOptions plugins;
  std::vector<std::string> problems, solver_opts, params, setup_texts;
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
      "tols", po::value(&tols), "tolerances FROM:TO[:PER_DECADE] or a comma list (rtol; default 1e-4:1e-8)")(
      "atol-scale", po::value(&atol_scale), "atol = scale * rtol (default: the problem's suggestion, else atol = rtol)")(
      "runs", po::value(&runs), "runs per point; the median wall time is reported (default 1)")(
      "error", po::value(&error), "final (scd at tend), l2 (timeseries), or both (default final)")(
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
  if (error != "final" && error != "l2" && error != "both") throw UsageError("--error must be final, l2 or both");
  if (runs < 1) throw UsageError("--runs must be at least 1");
  check_farm_options(farm_settings, vm);
  const int jobs = farm_settings.jobs;
  if (!(timeout >= 0) || !std::isfinite(timeout))
    throw UsageError("--timeout-per-run must be a finite number of seconds >= 0 (0: no limit)");
  if (vm.count("atol-scale") && !(atol_scale > 0 && std::isfinite(atol_scale)))
    throw UsageError("--atol-scale must be a positive finite number");
  if (vm.count("reference-tol") && !(reference_tol > 0 && reference_tol < 1))
    throw UsageError("--reference-tol must lie in (0, 1)");
  if (init != "check" && init != "fix" && init != "trust") throw UsageError("--init must be check, fix or trust");

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
  const std::map<std::string, std::map<std::string, std::string>> params_of = parameters_per_problem(params, problems);
  auto problem_params = [&](const std::string& problem) { return params_of.at(problem); };
  const auto tolerances = parse_tolerances(tols);

  // Every point, checked before anything runs (an unknown option fails here, not in a point),
  // and what the sweep needs to know of each problem. Plugin code: it runs in a child, so a
  // plugin that crashes when loaded ends the command with a message.
  std::vector<wpd::Point> points;
  for (const auto& problem : problems)
    for (const auto& setup : setups)
      for (double tol : tolerances) {
        wpd::Point p;
        p.problem = problem;
        p.solver = setup.solver;
        p.setup = setup.name;
        p.setup_options = setup.all_options();
        p.params = problem_params(problem);
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
            }
            const auto& i = pi.info();
            out["problems"][p.problem] = {{"t0", i.t0}, {"tend", i.tend}, {"n", i.n},
                                          {"own_reference_at_tend", i.has_reference && i.reference_t == i.tend}};
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
  scoring << error << ";" << (vm.count("reference-solver") || error != "final" ? reference_solver : "") << "@"
          << reference_tol;
  wpd::Journal journal(out_dir, vm.count("resume") > 0);
  if (cache_dir.empty()) cache_dir = (std::filesystem::path(out_dir) / "cache").string();
  wpd::SweepOptions options;
  options.runs = runs;
  options.jobs = jobs;
  options.coordinator_jobs = farm_settings.coordinator_jobs;
  options.silence_limit_s = farm_settings.silence_limit_s;
  options.timeout_per_run = timeout;
  options.l2 = error != "final";
  options.quiet = vm.count("quiet") > 0;
  std::map<std::string, Trajectory> references;
  std::ostringstream reference_text;
  if (options.l2) {
    require_plugin(registry, reference_solver, DK_KIND_SOLVER);
    for (const auto& problem : problems) {
      const auto& facts = problem_facts[problem];
      wpd::ReferenceSpec spec{problem, reference_solver, problem_params(problem), reference_tol,
                              wpd::l2_grid(facts["t0"].get<double>(), facts["tend"].get<double>()), init};
      bool cached = false;
      references[problem] = wpd::reference_trajectory(registry, spec, cache_dir, timeout, &cached);
      if (!options.quiet)
        std::cerr << "daekit wpd: L2 reference for " << problem << " " << (cached ? "read from the cache" : "computed")
                  << " (" << reference_solver << " at " << reference_tol << ")\n";
    }
    reference_text << reference_solver << " at tol " << reference_tol << ", " << 100 << " times";
  }

  // Problems without a reference of their own at tend are scored against the reference
  // solver's y(tend) when a reference solver is named (or computed anyway for --error l2).
  std::ostringstream final_reference_text;
  if (vm.count("reference-solver") || options.l2) {
    require_plugin(registry, reference_solver, DK_KIND_SOLVER);
    for (const auto& problem : problems) {
      const auto& facts = problem_facts[problem];
      if (facts["own_reference_at_tend"].get<bool>()) continue;
      const double tend = facts["tend"].get<double>();
      const std::size_t n = facts["n"].get<std::size_t>();
      Trajectory trajectory;
      if (auto it = references.find(problem); it != references.end()) {
        trajectory = it->second;
      } else {
        wpd::ReferenceSpec spec{problem, reference_solver, problem_params(problem), reference_tol, {tend}, init};
        bool cached = false;
        trajectory = wpd::reference_trajectory(registry, spec, cache_dir, timeout, &cached);
        if (!options.quiet)
          std::cerr << "daekit wpd: final reference for " << problem << " " << (cached ? "read from the cache" : "computed")
                    << " (" << reference_solver << " at " << reference_tol << ")\n";
      }
      const std::vector<double> y_end(trajectory.y.end() - static_cast<std::ptrdiff_t>(n), trajectory.y.end());
      for (auto& p : points)
        if (p.problem == problem) p.final_reference = y_end;
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
  for (const auto& problem : problems) sizes[problem] = problem_facts[problem]["n"].get<std::size_t>();
  std::vector<wpd::PointResult> results;
  {
    // SIGINT and SIGTERM end the sweep in order: the running points are killed, the
    // finished ones are written, and --resume can go on from there.
    const InterruptFlag interrupt;
    options.interrupted = interrupt.flag();
    results = wpd::run_sweep(farm, points, options, references, sizes);
  }

  wpd::SweepInfo info;
  info.problems = problems;
  info.solvers = solver_names;
  for (const auto& s : setups) info.setups.push_back(s.name);
  info.tolerances = tols;
  info.error = error;
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
  std::cout << "daekit wpd: " << results.size() << " points (" << failed << " failed) written to " << out_dir << "\n";
  if (error != "l2") wpd::print_summary(std::cout, results, info);
  // The results are written; a diagram that could not be drawn still fails the command.
  return drawn ? 0 : 1;
}

}  // namespace daekit::host
