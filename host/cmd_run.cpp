#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <daekit/scoring.hpp>
#include <daekit/solve_request.hpp>
#include <daekit/status.hpp>
#include <iostream>
#include <optional>
#include <sstream>

#include <daekit/api/run_setup.hpp>
#include <daekit/api/stat_fields.hpp>
#include <daekit/daekit.hpp>

#include "checked_file.hpp"
#include "child_process.hpp"
#include "farm/transport.hpp"
#include "plugin_output.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "rank_rows.hpp"
#include "report.hpp"
#include "run_options.hpp"

namespace daekit::host {
namespace {

// t0, t0 + dt, ... and tend, for a problem's output interval dt (ABI 1.3); empty without
// one, or when it would give more than a million points (the end alone then).
std::vector<double> default_output_grid(const dk_problem_info& info, double tend) {
  constexpr double max_points = 1e6;
  if (!DK_HAS_FIELD(&info, dk_problem_info, output_interval) || !(info.output_interval > 0.0)) return {};
  const double dt = info.output_interval, span = tend - info.t0;
  if (!(span > 0.0) || span / dt > max_points) return {};
  std::vector<double> grid;
  // k dt from t0, not sums, so that no rounding accumulates; a last point closer to tend
  // than a millionth of dt is tend itself.
  for (long k = 0; info.t0 + static_cast<double>(k) * dt < tend - 1e-6 * dt; ++k)
    grid.push_back(info.t0 + static_cast<double>(k) * dt);
  grid.push_back(tend);
  return grid;
}

// A range START:STEP:END expands to START + k STEP up to END (END itself when the steps
// reach it within rounding), as Julia's and MATLAB's ranges; at most this many points.
constexpr double max_range_points = 1e7;

double saveat_number(const std::string& text, const std::string& item) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw UsageError("--saveat expects comma-separated times or ranges START:STEP:END, got '" + item + "'");
  return v;
}

void append_range(const std::string& item, std::vector<double>& out) {
  std::vector<std::string> parts;
  std::stringstream in(item);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.size() != 3 || item.back() == ':')
    throw UsageError("--saveat: a range is START:STEP:END, got '" + item + "'");
  const double first = saveat_number(parts[0], item), step = saveat_number(parts[1], item),
               last = saveat_number(parts[2], item);
  if (step == 0.0 || (last - first) / step < 0.0)
    throw UsageError("--saveat: the range '" + item + "' has a step that does not lead from its start to its end");
  const double count = std::floor((last - first) / step * (1.0 + 1e-12) + 1e-9) + 1.0;
  if (!(count <= max_range_points))
    throw UsageError("--saveat: the range '" + item + "' has more than 10^7 points");
  for (long k = 0; k < static_cast<long>(count); ++k) out.push_back(first + static_cast<double>(k) * step);
  if (std::abs(out.back() - last) <= 1e-9 * std::abs(step)) out.back() = last;
}

std::vector<double> parse_times(const std::string& list) {
  std::vector<double> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.find(':') != std::string::npos)
      append_range(item, out);
    else
      out.push_back(saveat_number(item, item));
  }
  return out;
}

std::string format_number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}



// What `daekit run` was asked, read from its command line and checked.
struct RunRequest {
  PluginOptions plugins;
  std::string problem_name, solver_name, saveat, output_file, report = "text";
  std::vector<std::string> params, solver_opts, variable_names;
  double timeout = 0;
  long long gather_limit = default_gather_limit;  // rank_rows.hpp
  bool every_step = false, in_process = false, isolate = false;
  api::RunSettings settings;
};

std::optional<RunRequest> parse_run_request(int argc, char** argv) {
  RunRequest r;
  std::string output_vars;
  RunSettingsOptions run_settings;
  po::options_description desc("daekit run options");
  desc.add_options()("help,h", "show this help")("problem,p", po::value(&r.problem_name), "problem plugin name")(
      "solver,s", po::value(&r.solver_name), "solver plugin name")(
      "param", po::value(&r.params)->composing(), "problem parameter key=value (repeatable)")(
      "solver-opt", po::value(&r.solver_opts)->composing(), "solver option key=value (repeatable)")(
      "saveat", po::value(&r.saveat), "output at these times (comma-separated), by dense output")(
      "every-step", "output every accepted step")(
      "output,o", po::value(&r.output_file), "write the output points to FILE.csv or FILE.json")(
      "output-vars", po::value(&output_vars),
      "the columns of --output: these variables (comma-separated names of components or of the problem's "
      "outputs, e.g. an FMU's outputs and locals; daekit info lists them) instead of all components")(
      "report", po::value(&r.report), "summary format: text or json")(
      "isolate", "run the plugins in a child process (the default): a crash becomes status 'crashed'")(
      "in-process", "run the plugins in this process (for debuggers and profilers; no --timeout)")(
      "timeout", po::value(&r.timeout),
      "seconds the run may take; then it is killed, status 'timeout' (default: none)")(
      "gather-limit", po::value(&r.gather_limit),
      "a problem whose rows stay on their MPI ranks writes --output as one file up to this many rows, "
      "above it one file per rank, FILE.rank<R>.csv (default 10000000)")(
      "verbose,v", "show the plugins' notes (an FMU's own log lines) on stderr");
  run_settings.add_to(desc);
  add_plugin_options(desc, r.plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm,
                          "usage: daekit run --problem P --solver S [--rtol R --atol A ...]"))
    return std::nullopt;
  if (r.problem_name.empty() || r.solver_name.empty()) throw UsageError("both --problem and --solver are required");
  r.settings = run_settings.read(vm);
  if (vm.count("saveat") && r.saveat.empty()) throw UsageError("--saveat needs at least one time");
  if (vm.count("output") && r.output_file.empty()) throw UsageError("--output needs a file name");
  if (vm.count("output-vars") && r.output_file.empty()) throw UsageError("--output-vars needs --output FILE");
  r.variable_names = split_variable_names(output_vars, "output-vars");
  if (vm.count("output-vars") && r.variable_names.empty()) throw UsageError("--output-vars needs at least one name");
  // A long run's result must not be lost to an output path that cannot be written.
  if (!r.output_file.empty()) check_writable(r.output_file);
  if (vm.count("isolate") && vm.count("in-process")) throw UsageError("choose one of --isolate and --in-process");
  if (r.gather_limit < 1) throw UsageError("--gather-limit must be a positive number of rows");
  if (vm.count("timeout") && (!std::isfinite(r.timeout) || r.timeout <= 0))
    throw UsageError("--timeout must be a positive number of seconds");
  if (vm.count("timeout") && vm.count("in-process"))
    throw UsageError("--timeout needs the run in a child process: drop --in-process");
  loader::show_plugin_notes(vm.count("verbose") > 0);
  r.every_step = vm.count("every-step") > 0;
  r.in_process = vm.count("in-process") > 0;
  r.isolate = vm.count("isolate") > 0;
  if (r.report != "text" && r.report != "json") throw UsageError("--report must be text or json");
  return r;
}

// The report of a solve: the result, what was run, and how it scored.
RunReport report_of(const Solution& solution, const dk_problem_info& info, const SolverHandle& solver,
                    const std::string& solver_version, const SolveOptions& settings) {
  RunReport r;
  r.result.struct_size = sizeof r.result;
  r.result.status = static_cast<std::int32_t>(solution.status);
  r.result.t_reached = solution.t_reached;
  std::snprintf(r.result.message, sizeof r.result.message, "%s", solution.message.c_str());
  r.result.stats = solution.stats;
  r.events = solution.events;
  if (DK_HAS_FIELD(&info, dk_problem_info, constraints)) {
    r.has_events = info.nroots > 0 || (info.flags & DK_PROBLEM_TIME_EVENTS);
    r.constraints_ignored = constrained_components(info) > 0 && !(solver.info().flags & DK_SOLVER_CONSTRAINTS);
    for (std::size_t i = 0; i < info.nroots; ++i)
      r.root_names.push_back(api::root_name(info, i));
  }
  r.problem = info.name;
  r.problem_title = info.title;
  r.solver = solver.info().name;
  r.solver_version = solver_version;
  r.n = info.n;
  r.t0 = solution.t0;
  r.tend = solution.tend;
  r.rtol = format_number(solution.rtol);
  r.atol = solution.atol_text;
  r.rtol_value = solution.rtol;
  r.atol_values = solution.atol;
  // The Jacobian used; the one asked for when the solver did not say.
  r.jacobian = r.result.stats.jacobian_used == DK_JACOBIAN_ANALYTIC ||
                       r.result.stats.jacobian_used == DK_JACOBIAN_FINITE_DIFFERENCE
                   ? api::jacobian_name(r.result.stats.jacobian_used)
                   : settings.jacobian;
  if (solution.sensitivity_count() > 0)  // the rows of the sensitivities' table; no list of n names otherwise
    for (std::size_t i = 0; i < info.n; ++i) r.component_names.push_back(component_name(info, i));
  r.sensitivity_names = settings.sensitivities.empty() ? std::vector<std::string>{} : solution.sensitivity_names;
  if (const std::size_t points = solution.t.size(); points > 0 && solution.sensitivity_count() > 0 &&
                                                    solution.s.size() == points * info.n * solution.sensitivity_count())
    for (std::size_t i = 0; i < info.n; ++i) {
      r.sensitivities_at_end.emplace_back();
      for (std::size_t k = 0; k < solution.sensitivity_count(); ++k)
        r.sensitivities_at_end.back().push_back(solution.sensitivity(points - 1, i, k));
    }
  if (solution.accuracy) {
    r.accuracy = solution.accuracy;
    r.reference_used = solution.reference_used;
    r.reference_source = solution.reference_source;
    r.scored_components = scored_components_text(info);
  }
  return r;
}

// The points with the sensitivities after their own columns, named dY/dQ (Y a component,
// Q a parameter or y0:COMPONENT); a point reached without them (a failed run's last) has none.
void write_trajectory_with_sensitivities(const std::string& target, const std::vector<std::string>& columns,
                                         const Trajectory& collected, const std::vector<double>& values,
                                         const std::vector<std::string>& components) {
  std::vector<std::string> names = columns;
  const std::size_t n = collected.n, ns = collected.sensitivity_count(), width = columns.size();
  for (std::size_t k = 0; k < ns; ++k)
    for (std::size_t i = 0; i < n; ++i) names.push_back("d" + components[i] + "/d" + collected.sensitivity_names[k]);
  const std::size_t points = std::min(collected.t.size(), collected.s.size() / (n * ns));
  std::vector<double> rows;
  for (std::size_t p = 0; p < points; ++p) {
    rows.insert(rows.end(), values.begin() + static_cast<std::ptrdiff_t>(p * width),
                values.begin() + static_cast<std::ptrdiff_t>((p + 1) * width));
    rows.insert(rows.end(), collected.s.begin() + static_cast<std::ptrdiff_t>(p * n * ns),
                collected.s.begin() + static_cast<std::ptrdiff_t>((p + 1) * n * ns));
  }
  write_trajectory(target, names, std::vector<double>(collected.t.begin(), collected.t.begin() + static_cast<std::ptrdiff_t>(points)), rows);
}

// --output: the points; a failed run never replaces an existing file, what it reached goes
// beside it (FILE.partial); a device or a pipe takes it in place, as it takes a success.
void write_output(const std::string& output_file, const Solution& solution, const dk_problem_info& info,
                  bool has_events) {
  const Trajectory& collected = solution;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.n; ++i) names.push_back(component_name(info, i));
  const bool success = solution.success();
  const std::string target = output_target(output_file, success);
  const bool chosen = !collected.variable_names.empty();
  if (has_events)
    write_trajectory_with_events(target, chosen ? collected.variable_names : names, collected,
                                 chosen ? TrajectoryColumns::variables : TrajectoryColumns::components);
  else if (collected.sensitivity_count() > 0)
    write_trajectory_with_sensitivities(target, chosen ? collected.variable_names : names, collected,
                                        chosen ? collected.variables : collected.y, names);
  else if (chosen)
    write_trajectory(target, collected.variable_names, collected.t, collected.variables);
  else
    write_trajectory(target, names, collected.t, collected.y);
  if (!success) say_where_failed_output_went(collected.t.size(), output_file, target);
}

int solve_and_report(const RunRequest& request) {
  PluginOutputToStderr plugin_output(request.report == "json");
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
  const dk_problem_info& info = problem.info();
  if (const int size = loader::default_host()->mpi_size; size > 1 && !dk_distribution_of(&info))
    throw UsageError("problem '" + request.problem_name + "' has no distributed form, and on the " +
                     std::to_string(size) + " ranks of this MPI launch each would solve it again; run it as one "
                     "process (without mpirun or srun), or spread many runs with daekit wpd or daekit ensemble "
                     "(docs/scale.md)");

  SolveOptions settings;
  static_cast<api::RunSettings&>(settings) = request.settings;
  settings.solver_options = parse_key_values(request.solver_opts, "--solver-opt");
  if (!request.saveat.empty() && request.every_step) throw UsageError("choose one of --saveat and --every-step");
  if (!request.saveat.empty()) settings.saveat = parse_times(request.saveat);
  settings.output = !request.saveat.empty() ? DK_OUTPUT_SAVEAT
                    : request.every_step    ? DK_OUTPUT_EVERY_STEP
                                            : DK_OUTPUT_END;
  // No output asked for, and the problem has an output interval (an FMU's stepSize): its grid.
  if (settings.output == DK_OUTPUT_END) {
    settings.saveat = default_output_grid(info, settings.tend ? *settings.tend : info.tend);
    if (!settings.saveat.empty()) settings.output = DK_OUTPUT_SAVEAT;
  }
  settings.output_vars = request.variable_names;
  const bool rows_on_ranks = dk_rows_held(&info) < info.n;  // local rows: each rank holds its own
  const auto gather_limit = static_cast<std::size_t>(request.gather_limit);
  if (rows_on_ranks && info.n > gather_limit && written_in_place(request.output_file))
    throw UsageError("--output " + request.output_file + ": above --gather-limit every rank writes a file of its own "
                     "rows beside the one named (FILE.rank<R>.csv); name a regular file");
  // The library's solve: the same settings, checks and scoring as every program using it.
  const Solution solution = daekit::solve(problem, solver, settings);
  RunReport r = report_of(solution, info, solver, solver_plugin.manifest.version, settings);
  if (rows_on_ranks)  // only run_on_ranks creates a problem on ranks
    finish_on_ranks(*farm::current_launch(), solution, info, request.output_file, gather_limit, r);
  else if (!request.output_file.empty() && loader::default_host()->mpi_rank == 0)
    write_output(request.output_file, solution, info, r.has_events);  // over ranks, rank 0 holds the points
  plugin_output.restore();
  if (request.report == "json")
    std::cout << to_json(r).dump(2) << "\n";
  else
    print_text(r, std::cout);
  if (!solution.success()) {
    std::cerr << "daekit run: " << status_name(static_cast<Status>(r.result.status)) << ": " << r.result.message
              << "\n";
    return 1;
  }
  return 0;
}


// The child that ran the plugins could not report (a crash, a hang past --timeout): the parent does.
int report_lost_run(const RunRequest& request, const ChildOutcome& end) {
  const auto [status, message] = lost_child(
      end, request.timeout, "the run of solver '" + request.solver_name + "' on problem '" + request.problem_name + "'");
  if (request.report == "json") {
    std::cout << lost_child_json(status, message, request.problem_name, request.solver_name, end.signal).dump(2) << "\n";
  } else {
    std::cout << "problem    " << request.problem_name << "\nsolver     " << request.solver_name << "\nstatus     "
              << status << "\n";
  }
  std::cerr << "daekit run: " << status << ": " << message << "\n";
  return 1;
}

// One problem spread over the ranks of an MPI launch (main.cpp started MPI): every rank
// solves its rows in its own process, where MPI lives (a forked child cannot use it); rank 0
// alone reports and writes, the others are silent (they would repeat it R times).
int run_on_ranks(RunRequest request, farm::Transport& ranks) {
  if (request.isolate || request.timeout > 0)
    throw UsageError("a run over the ranks of an MPI launch runs in the launched processes: --isolate and "
                     "--timeout do not apply (the launcher's own time limit does)");
  if (ranks.rank() != 0) {
    const int nowhere = ::open("/dev/null", O_WRONLY);
    if (nowhere >= 0) {
      std::fflush(nullptr);
      ::dup2(nowhere, STDOUT_FILENO);
      ::dup2(nowhere, STDERR_FILENO);
      ::close(nowhere);
    }
  }
  loader::set_problem_ranks(ranks.world_handle(), ranks.rank(), ranks.size());
  return solve_and_report(request);
}

}  // namespace

int command_run(int argc, char** argv) {
  const std::optional<RunRequest> parsed = parse_run_request(argc, argv);
  if (!parsed) return 0;
  const RunRequest& request = *parsed;
  if (farm::Transport* ranks = farm::current_launch()) return run_on_ranks(request, *ranks);
  return run_isolated("run", request.report == "json", request.in_process, request.timeout,
                      [&] { return solve_and_report(request); },
                      [&](const ChildOutcome& end) { return report_lost_run(request, end); });
}

}  // namespace daekit::host
