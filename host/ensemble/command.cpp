// `daekit ensemble`: parameter studies and Monte Carlo runs of one problem with one solver,
// each member a run of the task farm (locally, or over the ranks of an MPI launch).
// parse -> plan (the members, the first one checked in a child) -> run -> write.
#include <daekit/api/run_setup.hpp>
#include <daekit/sdk/closest_names.hpp>
#include <daekit/solve_request.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "../build_info.hpp"
#include "../child_process.hpp"
#include "../cli.hpp"
#include "../commands.hpp"
#include "../farm/task_kinds.hpp"
#include "../report.hpp"
#include "../run_options.hpp"
#include "../run_settings_json.hpp"
#include "../signal_flag.hpp"
#include "../wpd/journal.hpp"
#include "../wpd/progress.hpp"
#include "member_task.hpp"
#include "parameter_study.hpp"
#include "results.hpp"

namespace daekit::host {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Request {
  PluginOptions plugins;
  std::string problem, solver, outputs_text, out_dir, command_line;
  std::vector<std::string> params, grids, randoms, solver_opts;
  double timeout = 600;
  std::size_t samples = 0;
  std::uint64_t seed = 1;
  FarmSettings farm;
  api::RunSettings settings;
  bool quiet = false, overwrite = false;
};

std::optional<Request> parse_request(int argc, char** argv) {
  Request r;
  // Members record y at the end; their sensitivities are not gathered (yet).
  RunSettingsOptions run_settings({.sensitivities = false});
  po::options_description desc("daekit ensemble options");
  desc.add_options()("help,h", "show this help")("problem,p", po::value(&r.problem), "problem plugin name")(
      "solver,s", po::value(&r.solver), "solver plugin name")(
      "param", po::value(&r.params)->composing(), "a fixed problem parameter key=value (repeatable)")(
      "param-grid", po::value(&r.grids)->composing(),
      "a parameter on a grid: k=FROM:TO:COUNT, k=FROM:TO:COUNT:log or k=a,b,c (repeatable: every combination)")(
      "param-random", po::value(&r.randoms)->composing(),
      "a random parameter: k=normal(MEAN,SD), k=lognormal(MU,SIGMA) or k=uniform(LOW,HIGH) (repeatable)")(
      "samples", po::value(&r.samples), "draws of the random parameters per grid point (needed with --param-random)")(
      "seed", po::value(&r.seed), "seed of the random draws (default 1): the same seed gives the same members")(
      "outputs", po::value(&r.outputs_text),
      "recorded at the end, comma-separated: components by name or number, or the problem's outputs by name "
      "(an FMU's variables; daekit info lists them) (default: all components, for up to 20)")(
      "solver-opt", po::value(&r.solver_opts)->composing(), "solver option key=value (repeatable)")(
      "timeout-per-run", po::value(&r.timeout), "seconds a member may take before it is killed (default 600; 0: none)")(
      "out,o", po::value(&r.out_dir), "output folder (members.csv, results.json)")(
      "overwrite", "replace the results of an earlier ensemble in --out")("quiet,q", "no progress");
  run_settings.add_to(desc);
  add_farm_options(desc, r.farm, "members");
  add_plugin_options(desc, r.plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm,
                          "usage: daekit ensemble --problem P --solver S --param-grid 'k=1:10:10' "
                          "[--param-random 'c=normal(1,0.1)' --samples M --seed S] --out DIR"))
    return std::nullopt;
  if (r.problem.empty() || r.solver.empty() || r.out_dir.empty())
    throw UsageError("--problem, --solver and --out are required");
  if (r.grids.empty() && r.randoms.empty()) throw UsageError("nothing varies: give --param-grid or --param-random");
  if (!r.randoms.empty() && r.samples == 0) throw UsageError("--param-random needs --samples M (M >= 1)");
  if (r.randoms.empty() && vm.count("samples")) throw UsageError("--samples needs a --param-random to draw");
  if (r.samples == 0) r.samples = 1;
  check_farm_options(r.farm, vm);
  if (auto* launch = farm::current_launch()) farm::announce_coordinator(*launch, r.farm.silence_limit_s);
  check_timeout("timeout-per-run", r.timeout);
  r.settings = run_settings.read(vm);
  r.settings.solver_options = parse_key_values(r.solver_opts, "--solver-opt");
  r.quiet = vm.count("quiet") > 0;
  r.overwrite = vm.count("overwrite") > 0;
  for (int i = 0; i < argc; ++i) r.command_line += (i ? " " : "daekit ") + std::string(argv[i]);
  return r;
}

// The members and what every one shares, checked on the first member in a child.
struct Plan {
  loader::Registry registry;
  std::vector<ensemble::GridAxis> grid;
  std::vector<ensemble::RandomParameter> random;
  std::map<std::string, std::string> fixed;
  std::vector<ensemble::Member> members;
  ensemble::StudyInfo info;

  std::map<std::string, std::string> params_of(const ensemble::Member& m) const {
    auto all = fixed;
    for (const auto& [k, v] : m.values) all[k] = ensemble::parameter_text(v);
    return all;
  }
};

// The recorded variables by name: components (also by number) or the problem's outputs.
std::vector<std::string> recorded_outputs(const Request& r, const std::vector<std::string>& names,
                                          const std::vector<std::string>& problem_outputs) {
  if (r.outputs_text.empty()) {
    if (names.size() > 20)
      throw UsageError(r.problem + " has " + std::to_string(names.size()) + " components: choose some with --outputs");
    return names;
  }
  std::vector<std::string> recorded;
  for (const auto& o : split_list(r.outputs_text, ',')) {
    std::string name = o;
    if (std::find(names.begin(), names.end(), o) == names.end() &&
        std::find(problem_outputs.begin(), problem_outputs.end(), o) == problem_outputs.end()) {
      char* end = nullptr;
      const long k = std::strtol(o.c_str(), &end, 10);
      if (*end != '\0' || end == o.c_str() || k < 0 || static_cast<std::size_t>(k) >= names.size()) {
        std::vector<std::string> known = names;
        known.insert(known.end(), problem_outputs.begin(), problem_outputs.end());
        const auto close = daekit::closest_names(o, known);
        throw UsageError("--outputs: " + r.problem + " has no component or output '" + o + "'" +
                         (close.empty() ? "" : " (did you mean " + close.front() + "?)"));
      }
      name = names[static_cast<std::size_t>(k)];
    }
    if (std::find(recorded.begin(), recorded.end(), name) != recorded.end())
      throw UsageError("--outputs names '" + name + "' twice");
    recorded.push_back(name);
  }
  return recorded;
}

// In a child (plugin code): the first member's parameter names, settings and outputs.
json survey_first_member(const Request& r, const Plan& plan) {
  const ChildOutcome surveyed = run_in_child(
      [&] {
        json out;
        try {
          loader::ProblemInstance pi(*plan.registry.find(r.problem), plan.params_of(plan.members.front()));
          loader::SolverInstance si(*plan.registry.find(r.solver));
          std::string why;
          if (!check_capabilities(si.info(), pi.info(), &why))
            throw UsageError(r.solver + " cannot solve " + r.problem + ": " + why);
          api::PreparedRun check(pi, si, r.settings);
          const dk_problem_info& info = pi.info();
          for (std::size_t i = 0; i < info.n; ++i) out["names"].push_back(api::component_name(info, i));
          out["problem_outputs"] = json::array();
          for (std::size_t k = 0; k < pi.output_count(); ++k) out["problem_outputs"].push_back(pi.output_name(k));
        } catch (const std::exception& e) {
          out = {{"error", e.what()}};
        }
        return out.dump();
      },
      r.timeout);
  json survey = surveyed.finished() ? json::parse(surveyed.payload, nullptr, false) : json();
  if (!survey.is_object())
    throw UsageError("the plugins could not be loaded to check the study: their code " + surveyed.describe(r.timeout));
  if (survey.contains("error")) throw UsageError(survey["error"].get<std::string>());
  return survey;
}

Plan plan_study(const Request& r) {
  // The study's own words are checked before any plugin is looked for.
  std::vector<ensemble::GridAxis> grid;
  for (const auto& g : r.grids) grid.push_back(ensemble::parse_grid(g));
  std::vector<ensemble::RandomParameter> random;
  for (const auto& x : r.randoms) random.push_back(ensemble::parse_random(x));
  auto fixed = parse_key_values(r.params, "--param");
  auto members = ensemble::make_members(grid, random, r.samples, r.seed);
  ensemble::StudyInfo info;
  for (const auto& a : grid) info.varied.push_back(a.key);
  for (const auto& x : random) info.varied.push_back(x.key);
  for (const auto& k : info.varied)
    if (fixed.count(k)) throw UsageError("parameter '" + k + "' is both fixed (--param) and varied");
  Plan plan{api::discover_plugins(r.plugins), std::move(grid), std::move(random), std::move(fixed),
            std::move(members), std::move(info)};
  api::require_plugin(plan.registry, r.problem, DK_KIND_PROBLEM);
  api::require_plugin(plan.registry, r.solver, DK_KIND_SOLVER);
  const json survey = survey_first_member(r, plan);
  plan.info.problem = r.problem;
  plan.info.solver = r.solver;
  plan.info.output_names = recorded_outputs(r, survey["names"].get<std::vector<std::string>>(),
                                            survey["problem_outputs"].get<std::vector<std::string>>());
  plan.info.per_grid_point = !plan.grid.empty() && r.samples > 1;
  plan.info.command_line = r.command_line;
  return plan;
}

// Every member run by the farm; its results in member order ("interrupted" when never run).
std::vector<ensemble::MemberResult> run_members(const Request& r, const Plan& plan, farm::Farm& farm) {
  std::vector<farm::Task> tasks;
  std::vector<std::size_t> all;
  std::vector<wpd::ProgressPoint> progress_points;
  std::vector<ensemble::MemberResult> results(plan.members.size());
  for (std::size_t i = 0; i < plan.members.size(); ++i) {
    farm::Task t;
    t.kind = ensemble::member_task_kind;
    t.input = {{"problem", r.problem}, {"solver", r.solver}, {"params", plan.params_of(plan.members[i])},
               {"settings", settings_to_json(r.settings)}, {"outputs", plan.info.output_names}};
    t.budget_s = r.timeout;
    tasks.push_back(std::move(t));
    all.push_back(i);
    progress_points.push_back({"member " + std::to_string(i), "members", 1.0, true});
    results[i].member = plan.members[i];
  }
  wpd::ProgressBar progress(std::move(progress_points), r.farm.jobs * farm.ranks(), r.quiet);
  farm::FarmOptions run;
  run.jobs = r.farm.jobs;
  run.coordinator_jobs = r.farm.coordinator_jobs;
  run.silence_limit_s = r.farm.silence_limit_s;
  run.started = [&](std::size_t i) { progress.started(i); };
  run.tick = [&] { progress.tick(); };
  run.finished = [&](std::size_t i, const farm::TaskOutcome& outcome) {
    ensemble::MemberResult& m = results[i];
    m.host = outcome.host;
    m.rank = outcome.rank;
    const farm::RunReport report = farm::report_of(outcome, r.timeout);
    m.status = report.status;
    m.message = report.message;
    if (report.has_result()) {
      const json& j = report.result;
      m.wall_s = j.value("wall_s", 0.0);
      if (j.contains("stats")) m.stats = j["stats"];
      if (j.contains("outputs")) m.outputs = j["outputs"].get<std::vector<double>>();
    }
    progress.finished(i, m.status);
  };
  {
    // SIGINT and SIGTERM: the running members are killed, the finished ones written.
    const InterruptFlag interrupt;
    run.interrupted = interrupt.flag();
    farm.run(tasks, all, run);
  }
  progress.finish();
  return results;
}

int write_study(const Request& r, Plan& plan, const std::vector<ensemble::MemberResult>& results, int ranks) {
  json grid_json = json::array(), random_json = json::array();
  for (const auto& a : plan.grid) grid_json.push_back({{"key", a.key}, {"values", a.values}});
  for (const auto& x : plan.random) random_json.push_back({{"key", x.key}, {"law", x.text}});
  ensemble::StudyInfo& info = plan.info;
  info.meta = {{"seed", r.seed}, {"samples", r.samples}, {"grid", grid_json}, {"random", random_json},
               {"fixed_params", plan.fixed}, {"settings", settings_to_json(r.settings)}, {"mpi_ranks", ranks},
               {"jobs", r.farm.jobs}, {"build", to_json(build_info())}};
  const json stats = ensemble::summary(results, info);
  std::size_t unfinished = 0;
  for (const auto& m : results) unfinished += m.status == "interrupted";
  info.meta["complete"] = unfinished == 0;
  const auto dir = fs::path(r.out_dir);
  ensemble::write_members_csv((dir / "members.csv").string(), results, info);
  ensemble::write_results_json((dir / "results.json").string(), results, info, stats);
  if (unfinished > 0) {
    std::cerr << "daekit ensemble: interrupted: " << results.size() - unfinished << " of " << results.size()
              << " members finished and are written to " << r.out_dir << "\n";
    return 130;
  }
  std::cout << "daekit ensemble: " << results.size() << " members of " << r.problem << " with " << r.solver
            << " written to " << r.out_dir << "\n";
  ensemble::print_summary(std::cout, stats, info);
  return 0;
}

}  // namespace

int command_ensemble(int argc, char** argv) {
  const std::optional<Request> parsed = parse_request(argc, argv);
  if (!parsed) return 0;
  const Request& request = *parsed;
  Plan plan = plan_study(request);

  fs::create_directories(request.out_dir);
  const wpd::FolderLock lock(request.out_dir);
  const auto dir = fs::path(request.out_dir);
  if (fs::exists(dir / "results.json") && !request.overwrite)
    throw UsageError("--out " + request.out_dir + " holds the results of an earlier ensemble: --overwrite to replace them");
  for (const char* file : {"results.json", "members.csv"}) check_writable((dir / file).string());

  farm::Farm farm(plan.registry, request.plugins, farm::all_task_kinds(), farm::current_launch());
  const auto results = run_members(request, plan, farm);
  return write_study(request, plan, results, farm.ranks());
}

}  // namespace daekit::host
