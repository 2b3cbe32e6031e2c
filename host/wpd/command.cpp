// `daekit wpd`: work-precision diagrams for any mix of solver and problem plugins.
// parse (request.cpp) -> plan (plan.cpp) -> references -> run the points -> write.
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "../commands.hpp"
#include "../farm/task_kinds.hpp"
#include "../signal_flag.hpp"
#include "journal.hpp"
#include "outputs.hpp"
#include "plan.hpp"
#include "reference.hpp"
#include "sweep.hpp"

namespace daekit::host {
namespace {

using namespace wpd;
namespace fs = std::filesystem;

// The references the points are scored against, and what they are, in words.
struct References {
  ReferenceTrajectories trajectories;
  std::string reference, error_reference, final_reference, sens_reference;
};

class ReferenceMaker {
 public:
  ReferenceMaker(const Request& request, const Plan& plan, std::string cache_dir)
      : request_(request), plan_(plan), cache_dir_(std::move(cache_dir)) {}

  api::Trajectory make(const std::string& label, const std::vector<double>& times, const char* what) const {
    return make_with(request_.reference_solver, label, times, what, {});
  }
  api::Trajectory make_with(const std::string& solver, const std::string& label, const std::vector<double>& times,
                            const char* what, const std::vector<std::string>& sensitivities) const {
    const Instance& instance = plan_.instance(label);
    ReferenceSpec spec{instance.problem, solver, instance.params, request_.reference_tol, times,
                       request_.settings.init, sensitivities};
    bool cached = false;
    api::Trajectory t = reference_trajectory(plan_.registry, spec, cache_dir_, request_.timeout, &cached);
    if (!request_.quiet)
      std::cerr << "daekit wpd: " << what << " reference for " << label << " "
                << (cached ? "read from the cache" : "computed") << " (" << solver << " at "
                << request_.reference_tol << ")\n";
    return t;
  }

 private:
  const Request& request_;
  const Plan& plan_;
  std::string cache_dir_;
};

// Reference trajectories for the measures on fixed times, for the problems without an
// exact solution (those are scored against it in each point).
void trajectory_references(const Request& r, const Plan& plan, const ReferenceMaker& maker, References& out) {
  if (r.beyond_final) api::require_plugin(plan.registry, r.reference_solver, DK_KIND_SOLVER);
  bool exact = false, solver = false;
  for (const auto& label : plan.labels) {
    const auto& facts = plan.problem_facts[label];
    (facts["exact"].get<bool>() ? exact : solver) = true;
    if (facts["exact"].get<bool>()) continue;
    const double t0 = facts["t0"].get<double>(), tend = facts["tend"].get<double>();
    if (wants(r.measures, Measure::l2_reference))
      out.trajectories.l2_grid[label] = maker.make(label, l2_grid(t0, tend), "L2");
    if (wants_dense(r.measures)) out.trajectories.uniform[label] = maker.make(label, uniform_times(t0, tend), "dense");
  }
  std::ostringstream reference, error_reference;
  if (wants(r.measures, Measure::l2_reference) && solver)
    reference << r.reference_solver << " at tol " << r.reference_tol << ", " << 100 << " times";
  if (r.beyond_final) {
    if (solver) error_reference << r.reference_solver << " at tol " << r.reference_tol;
    if (solver && exact) error_reference << "; ";
    if (exact) error_reference << "the exact solution for the problems that have one";
  }
  out.reference = reference.str();
  out.error_reference = error_reference.str();
}

// Problems without a reference of their own at tend are scored against the reference
// solver's y(tend) when a reference solver is named (or computed anyway for --error l2).
void final_references(const Request& r, Plan& plan, const ReferenceMaker& maker, References& out) {
  if (!r.reference_solver_named && !r.beyond_final) return;
  api::require_plugin(plan.registry, r.reference_solver, DK_KIND_SOLVER);
  std::ostringstream text;
  for (const auto& label : plan.labels) {
    const auto& facts = plan.problem_facts[label];
    if (facts["own_reference_at_tend"].get<bool>()) continue;
    const double tend = facts["tend"].get<double>();
    const std::size_t n = facts["n"].get<std::size_t>();
    api::Trajectory trajectory;
    if (auto it = out.trajectories.l2_grid.find(label); it != out.trajectories.l2_grid.end())
      trajectory = it->second;
    else if (auto u = out.trajectories.uniform.find(label); u != out.trajectories.uniform.end())
      trajectory = u->second;
    else
      trajectory = maker.make(label, {tend}, "final");
    const std::vector<double> y_end(trajectory.y.end() - static_cast<std::ptrdiff_t>(n), trajectory.y.end());
    for (auto& p : plan.points)
      if (p.instance == label) p.final_reference = y_end;
    text << (text.tellp() > 0 ? "; " : "") << label << ": " << r.reference_solver << " at tol " << r.reference_tol
         << " (the problem has no reference of its own)";
  }
  out.final_reference = text.str();
}

// `--error sens`: every problem's dy/dq at tend from the reference solver, the
// sensitivities in its error test.
void sens_references(const Request& r, Plan& plan, const ReferenceMaker& maker, References& out) {
  if (!wants(r.measures, Measure::sens)) return;
  const std::string solver = r.sens_reference_solver();
  api::require_plugin(plan.registry, solver, DK_KIND_SOLVER);
  std::ostringstream text;
  text << solver << " at tol " << r.reference_tol << " with its sensitivities in the error test";
  out.sens_reference = text.str();
  for (const auto& label : plan.labels) {
    const auto& facts = plan.problem_facts[label];
    const std::size_t n = facts["n"].get<std::size_t>();
    const api::Trajectory run =
        maker.make_with(solver, label, {facts["tend"].get<double>()}, "sensitivities", r.settings.sensitivities);
    const std::size_t size = n * run.sensitivity_names.size();
    if (run.sensitivity_names.empty() || run.s.size() < size)
      throw UsageError("the reference solver " + solver + " gave no sensitivities for " + label);
    const std::vector<double> at_end(run.s.end() - static_cast<std::ptrdiff_t>(size), run.s.end());
    for (auto& p : plan.points)
      if (p.instance == label) p.sens_reference = at_end, p.sens_reference_source = out.sens_reference;
  }
}

// An earlier sweep's results in --out are continued or replaced only when asked.
void check_out_folder(const Request& r) {
  std::error_code ec;
  const bool earlier = fs::exists(fs::path(r.out_dir) / Journal::file_name, ec) ||
                       fs::exists(fs::path(r.out_dir) / "results.json", ec);
  if (earlier && !r.resume && !r.overwrite)
    throw UsageError("--out " + r.out_dir + " holds the results of an earlier sweep: --resume to continue it, "
                     "--overwrite to replace it, or choose another folder");
}

// What a point's journal key says of the scoring: a changed measure or reference runs it again.
std::string scoring_key(const Request& r) {
  std::ostringstream scoring;
  scoring.precision(17);
  for (const auto m : r.measures) scoring << measure_name(m) << ",";
  scoring << ";" << (r.reference_solver_named || r.beyond_final ? r.reference_solver : "") << "@" << r.reference_tol;
  return scoring.str();
}

SweepOptions sweep_options(const Request& r) {
  SweepOptions options;
  options.runs = r.runs;
  options.jobs = r.farm.jobs;
  options.coordinator_jobs = r.farm.coordinator_jobs;
  options.silence_limit_s = r.farm.silence_limit_s;
  options.timeout_per_run = r.timeout;
  options.measures = r.measures;
  options.reference_solver = r.reference_solver;
  options.reference_tol = r.reference_tol;
  options.quiet = r.quiet;
  return options;
}

SweepInfo sweep_info(const Request& r, const Plan& plan, const References& refs, const std::vector<PointResult>& results,
                     int ranks) {
  SweepInfo info;
  info.problems = plan.labels;
  info.problem_plugins = r.problems;
  info.parameter_sweeps = plan.instances.sweeps;
  info.solvers = plan.solver_names;
  for (const auto& s : plan.setups) info.setups.push_back(s.name);
  info.tolerances = r.tolerances_text;
  info.error = r.error_text;
  info.measures = r.measures;
  info.runs = r.runs;
  info.jobs = r.farm.jobs;
  info.mpi_ranks = ranks;
  std::set<std::string> hosts;
  for (const auto& row : results)
    if (!row.host.empty()) hosts.insert(row.host);
  info.ranks_per_host = hosts.empty() ? 1 : (ranks + static_cast<int>(hosts.size()) - 1) / static_cast<int>(hosts.size());
  info.target_scd = r.target_scd;
  info.reference = refs.reference;
  info.error_reference = refs.error_reference;
  info.final_reference = refs.final_reference;
  info.sens_reference = refs.sens_reference;
  info.command_line = r.command_line;
  info.settings = {{"init", r.settings.init},
                   {"atol_scale", r.atol_scale > 0 ? nlohmann::json(r.atol_scale) : nlohmann::json("the problem's")},
                   {"max_steps", r.settings.max_steps},
                   {"timeout_per_run_s", r.timeout},
                   {"runs", r.runs},
                   {"warm_up", "one untimed run before the timed ones, unless it took more than 1 s"}};
  return info;
}

// The files, and the exit code: 130 interrupted, 1 when a diagram could not be drawn.
int write_results(const Request& r, const std::vector<PointResult>& results, const SweepInfo& info,
                  const loader::Registry& registry) {
  const auto dir = fs::path(r.out_dir);
  write_csv((dir / "results.csv").string(), results);
  write_json((dir / "results.json").string(), results, info, registry);
  const bool drawn = write_plots(r.out_dir, results, info, std::cerr);
  std::size_t failed = 0, unfinished = 0;
  for (const auto& row : results) {
    failed += !row.ok();
    unfinished += row.status == "interrupted";
  }
  if (unfinished > 0) {
    std::cerr << "daekit wpd: interrupted: " << results.size() - unfinished << " of " << results.size()
              << " points finished and are written to " << r.out_dir << "; run the same command with --resume to finish\n";
    return 130;
  }
  (drawn ? std::cout : std::cerr) << "daekit wpd: " << results.size() << " points (" << failed << " failed) written to "
                                  << r.out_dir << (drawn ? "\n" : ", but not every diagram (above)\n");
  if (wants(r.measures, Measure::final_relative)) print_summary(std::cout, results, info);
  // The results are written; a diagram that could not be drawn still fails the command.
  return drawn ? 0 : 1;
}

}  // namespace

int command_wpd(int argc, char** argv) {
  const std::optional<Request> parsed = parse_request(argc, argv);
  if (!parsed) return 0;
  const Request& request = *parsed;
  Plan plan = plan_sweep(request);

  fs::create_directories(request.out_dir);
  const FolderLock lock(request.out_dir);
  check_out_folder(request);
  Journal journal(request.out_dir, request.resume);
  const std::string cache_dir =
      request.cache_dir.empty() ? (fs::path(request.out_dir) / "cache").string() : request.cache_dir;
  const ReferenceMaker maker(request, plan, cache_dir);
  References refs;
  trajectory_references(request, plan, maker, refs);
  final_references(request, plan, maker, refs);
  sens_references(request, plan, maker, refs);

  SweepOptions options = sweep_options(request);
  std::vector<std::string> keys;
  const std::string scoring = scoring_key(request);
  for (const auto& p : plan.points) keys.push_back(point_key(p, request.runs, scoring));
  options.earlier = [&](std::size_t i) { return journal.earlier(keys[i], plan.points[i]); };
  options.finished = [&](std::size_t i, const PointResult& r) { journal.append(keys[i], r); };
  farm::Farm farm(plan.registry, request.plugins, farm::all_task_kinds(), farm::current_launch());
  std::map<std::string, std::size_t> sizes;
  for (const auto& label : plan.labels) sizes[label] = plan.problem_facts[label]["n"].get<std::size_t>();
  std::vector<PointResult> results;
  {
    // SIGINT and SIGTERM end the sweep in order: the running points are killed, the
    // finished ones are written, and --resume can go on from there.
    const InterruptFlag interrupt;
    options.interrupted = interrupt.flag();
    results = run_sweep(farm, plan.points, options, refs.trajectories, sizes);
  }
  return write_results(request, results, sweep_info(request, plan, refs, results, farm.ranks()), plan.registry);
}

}  // namespace daekit::host
