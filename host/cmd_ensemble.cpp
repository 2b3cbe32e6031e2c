// `daekit ensemble`: parameter studies and Monte Carlo runs of one problem with one solver,
// each member a run of the task farm (locally, or over the ranks of an MPI launch).
#include <cmath>
#include <daekit/solve_request.hpp>
#include <filesystem>
#include <iostream>

#include "build_info.hpp"
#include "child_process.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "ensemble/member_task.hpp"
#include "ensemble/parameter_study.hpp"
#include "ensemble/results.hpp"
#include "farm/task_kinds.hpp"
#include "report.hpp"
#include "run_settings_json.hpp"
#include "signal_flag.hpp"
#include "wpd/journal.hpp"
#include "wpd/progress.hpp"

namespace daekit::host {

using nlohmann::json;

int command_ensemble(int argc, char** argv) {
  PluginOptions plugins;
  std::string problem, solver, outputs_text, out_dir, jacobian = "auto", init = "check";
  std::vector<std::string> params, grids, randoms, solver_opts;
  double rtol = 0, atol = 0, tend = 0, timeout = 600;
  std::size_t samples = 0;
  std::uint64_t seed = 1;
  FarmSettings farm_settings;
  std::int64_t max_steps = 100000;
  po::options_description desc("daekit ensemble options");
  desc.add_options()("help,h", "show this help")("problem,p", po::value(&problem), "problem plugin name")(
      "solver,s", po::value(&solver), "solver plugin name")(
      "param", po::value(&params)->composing(), "a fixed problem parameter key=value (repeatable)")(
      "param-grid", po::value(&grids)->composing(),
      "a parameter on a grid: k=FROM:TO:COUNT, k=FROM:TO:COUNT:log or k=a,b,c (repeatable: every combination)")(
      "param-random", po::value(&randoms)->composing(),
      "a random parameter: k=normal(MEAN,SD), k=lognormal(MU,SIGMA) or k=uniform(LOW,HIGH) (repeatable)")(
      "samples", po::value(&samples), "draws of the random parameters per grid point (needed with --param-random)")(
      "seed", po::value(&seed), "seed of the random draws (default 1): the same seed gives the same members")(
      "outputs", po::value(&outputs_text),
      "recorded at the end, comma-separated: components by name or number, or the problem's outputs by name "
      "(an FMU's variables; daekit info lists them) (default: all components, for up to 20)")(
      "rtol", po::value(&rtol), "relative tolerance (default: the problem's suggestion)")(
      "atol", po::value(&atol), "absolute tolerance (default: the problem's suggestion)")(
      "tend", po::value(&tend), "end of the time span (default: the problem's)")(
      "solver-opt", po::value(&solver_opts)->composing(), "solver option key=value (repeatable)")(
      "jacobian", po::value(&jacobian), "auto, analytic or fd")(
      "init", po::value(&init), "initial values: check (default), fix, trust")(
      "max-steps", po::value(&max_steps), "step limit per member (default 100000)")(
      "timeout-per-run", po::value(&timeout), "seconds a member may take before it is killed (default 600; 0: none)")(
      "out,o", po::value(&out_dir), "output folder (members.csv, results.json)")(
      "overwrite", "replace the results of an earlier ensemble in --out")("quiet,q", "no progress");
  add_farm_options(desc, farm_settings, "members");
  add_plugin_options(desc, plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm,
                          "usage: daekit ensemble --problem P --solver S --param-grid 'k=1:10:10' "
                          "[--param-random 'c=normal(1,0.1)' --samples M --seed S] --out DIR"))
    return 0;
  if (problem.empty() || solver.empty() || out_dir.empty()) throw UsageError("--problem, --solver and --out are required");
  if (grids.empty() && randoms.empty()) throw UsageError("nothing varies: give --param-grid or --param-random");
  if (!randoms.empty() && samples == 0) throw UsageError("--param-random needs --samples M (M >= 1)");
  if (randoms.empty() && vm.count("samples")) throw UsageError("--samples needs a --param-random to draw");
  if (samples == 0) samples = 1;
  check_farm_options(farm_settings, vm);
  if (auto* launch = farm::current_launch()) farm::announce_coordinator(*launch, farm_settings.silence_limit_s);
  if (!(timeout >= 0) || !std::isfinite(timeout)) throw UsageError("--timeout-per-run must be a finite number >= 0");
  for (const char* o : {"rtol", "atol", "tend"})
    if (vm.count(o)) {
      const double v = vm[o].as<double>();
      if (!std::isfinite(v) || (std::string(o) != "tend" && !(v > 0)))
        throw UsageError(std::string("--") + o + " must be a " + (std::string(o) == "tend" ? "finite" : "positive") +
                         " number");
    }

  std::vector<ensemble::GridAxis> grid;
  for (const auto& g : grids) grid.push_back(ensemble::parse_grid(g));
  std::vector<ensemble::RandomParameter> random;
  for (const auto& r : randoms) random.push_back(ensemble::parse_random(r));
  const auto fixed = parse_key_values(params, "--param");
  const auto members = ensemble::make_members(grid, random, samples, seed);
  std::vector<std::string> varied;
  for (const auto& a : grid) varied.push_back(a.key);
  for (const auto& r : random) varied.push_back(r.key);
  for (const auto& k : varied)
    if (fixed.count(k)) throw UsageError("parameter '" + k + "' is both fixed (--param) and varied");

  api::RunSettings settings;
  if (vm.count("rtol")) settings.rtol = rtol;
  if (vm.count("atol")) settings.atol = atol;
  if (vm.count("tend")) settings.tend = tend;
  settings.max_steps = max_steps;
  settings.solver_options = parse_key_values(solver_opts, "--solver-opt");
  settings.jacobian = jacobian;
  settings.init = init;

  loader::Registry registry = discover_plugins(plugins);
  require_plugin(registry, problem, DK_KIND_PROBLEM);
  require_plugin(registry, solver, DK_KIND_SOLVER);
  auto params_of = [&](const ensemble::Member& m) {
    auto all = fixed;
    for (const auto& [k, v] : m.values) all[k] = ensemble::parameter_text(v);
    return all;
  };

  // The first member, checked in a child (plugin code): parameter names, settings, the outputs.
  const ChildOutcome surveyed = run_in_child(
      [&] {
        json out;
        try {
          loader::ProblemInstance pi(*registry.find(problem), params_of(members.front()));
          loader::SolverInstance si(*registry.find(solver));
          std::string why;
          if (!check_capabilities(si.info(), pi.info(), &why)) throw UsageError(solver + " cannot solve " + problem + ": " + why);
          api::PreparedRun check(pi, si, settings);
          const dk_problem_info& info = pi.info();
          for (std::size_t i = 0; i < info.n; ++i) out["names"].push_back(api::component_name(info, i));
          out["problem_outputs"] = json::array();
          for (std::size_t k = 0; k < pi.output_count(); ++k) out["problem_outputs"].push_back(pi.output_name(k));
        } catch (const std::exception& e) {
          out = {{"error", e.what()}};
        }
        return out.dump();
      },
      timeout);
  json survey = surveyed.finished() ? json::parse(surveyed.payload, nullptr, false) : json();
  if (!survey.is_object()) throw UsageError("the plugins could not be loaded to check the study: their code " +
                                            surveyed.describe(timeout));
  if (survey.contains("error")) throw UsageError(survey["error"].get<std::string>());
  const auto names = survey["names"].get<std::vector<std::string>>();
  const auto problem_outputs = survey["problem_outputs"].get<std::vector<std::string>>();
  // The recorded variables by name: components (also by number) or the problem's outputs.
  std::vector<std::string> recorded;
  if (outputs_text.empty()) {
    if (names.size() > 20)
      throw UsageError(problem + " has " + std::to_string(names.size()) + " components: choose some with --outputs");
    recorded = names;
  } else {
    for (const auto& o : split_list(outputs_text, ',')) {
      std::string name = o;
      if (std::find(names.begin(), names.end(), o) == names.end() &&
          std::find(problem_outputs.begin(), problem_outputs.end(), o) == problem_outputs.end()) {
        char* end = nullptr;
        const long k = std::strtol(o.c_str(), &end, 10);
        if (*end != '\0' || end == o.c_str() || k < 0 || static_cast<std::size_t>(k) >= names.size()) {
          std::vector<std::string> known = names;
          known.insert(known.end(), problem_outputs.begin(), problem_outputs.end());
          const auto close = closest_names(o, known);
          throw UsageError("--outputs: " + problem + " has no component or output '" + o + "'" +
                           (close.empty() ? "" : " (did you mean " + close.front() + "?)"));
        }
        name = names[static_cast<std::size_t>(k)];
      }
      if (std::find(recorded.begin(), recorded.end(), name) != recorded.end())
        throw UsageError("--outputs names '" + name + "' twice");
      recorded.push_back(name);
    }
  }
  ensemble::StudyInfo info;
  info.problem = problem;
  info.solver = solver;
  info.varied = varied;
  info.output_names = recorded;
  info.per_grid_point = !grid.empty() && samples > 1;
  for (int i = 0; i < argc; ++i) info.command_line += (i ? " " : "daekit ") + std::string(argv[i]);

  std::filesystem::create_directories(out_dir);
  const wpd::FolderLock lock(out_dir);
  const auto dir = std::filesystem::path(out_dir);
  if (std::filesystem::exists(dir / "results.json") && !vm.count("overwrite"))
    throw UsageError("--out " + out_dir + " holds the results of an earlier ensemble: --overwrite to replace them");
  for (const char* file : {"results.json", "members.csv"}) check_writable((dir / file).string());

  std::vector<farm::Task> tasks;
  std::vector<std::size_t> all;
  std::vector<wpd::ProgressPoint> progress_points;
  for (std::size_t i = 0; i < members.size(); ++i) {
    farm::Task t;
    t.kind = ensemble::member_task_kind;
    t.input = {{"problem", problem}, {"solver", solver}, {"params", params_of(members[i])},
               {"settings", settings_to_json(settings)}, {"outputs", recorded}};
    t.budget_s = timeout;
    tasks.push_back(std::move(t));
    all.push_back(i);
    progress_points.push_back({"member " + std::to_string(i), "members", 1.0, true});
  }
  std::vector<ensemble::MemberResult> results(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) results[i].member = members[i];
  farm::Farm farm(registry, plugins, farm::all_task_kinds(), farm::current_launch());
  wpd::ProgressBar progress(std::move(progress_points), farm_settings.jobs * farm.ranks(), vm.count("quiet") > 0);
  farm::FarmOptions run;
  run.jobs = farm_settings.jobs;
  run.coordinator_jobs = farm_settings.coordinator_jobs;
  run.silence_limit_s = farm_settings.silence_limit_s;
  run.started = [&](std::size_t i) { progress.started(i); };
  run.tick = [&] { progress.tick(); };
  run.finished = [&](std::size_t i, const farm::TaskOutcome& outcome) {
    ensemble::MemberResult& r = results[i];
    r.host = outcome.host;
    r.rank = outcome.rank;
    const farm::RunReport report = farm::report_of(outcome, timeout);
    r.status = report.status;
    r.message = report.message;
    if (report.has_result()) {
      const json& j = report.result;
      r.wall_s = j.value("wall_s", 0.0);
      if (j.contains("stats")) r.stats = j["stats"];
      if (j.contains("outputs")) r.outputs = j["outputs"].get<std::vector<double>>();
    }
    progress.finished(i, r.status);
  };
  {
    // SIGINT and SIGTERM: the running members are killed, the finished ones written.
    const InterruptFlag interrupt;
    run.interrupted = interrupt.flag();
    farm.run(tasks, all, run);
  }
  progress.finish();

  json grid_json = json::array(), random_json = json::array();
  for (const auto& a : grid) grid_json.push_back({{"key", a.key}, {"values", a.values}});
  for (const auto& r : random) random_json.push_back({{"key", r.key}, {"law", r.text}});
  info.meta = {{"seed", seed}, {"samples", samples}, {"grid", grid_json}, {"random", random_json},
               {"fixed_params", fixed}, {"settings", settings_to_json(settings)}, {"mpi_ranks", farm.ranks()},
               {"jobs", farm_settings.jobs}, {"build", to_json(build_info())}};
  const json stats = ensemble::summary(results, info);
  std::size_t unfinished = 0;
  for (const auto& r : results) unfinished += r.status == "interrupted";
  info.meta["complete"] = unfinished == 0;
  ensemble::write_members_csv((dir / "members.csv").string(), results, info);
  ensemble::write_results_json((dir / "results.json").string(), results, info, stats);
  if (unfinished > 0) {
    std::cerr << "daekit ensemble: interrupted: " << results.size() - unfinished << " of " << results.size()
              << " members finished and are written to " << out_dir << "\n";
    return 130;
  }
  std::cout << "daekit ensemble: " << results.size() << " members of " << problem << " with " << solver
            << " written to " << out_dir << "\n";
  ensemble::print_summary(std::cout, stats, info);
  return 0;
}

}  // namespace daekit::host
