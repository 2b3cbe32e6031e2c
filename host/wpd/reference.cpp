#include "reference.hpp"
#include "../checked_file.hpp"

#include <cmath>
#include <cstdint>
#include <daekit/status.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../child_process.hpp"
#include "../cli.hpp"

namespace daekit::host::wpd {
namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::vector<double> l2_grid(double t0, double tend, std::size_t count) {
  std::vector<double> grid(count);
  const bool logarithmic = t0 == 0.0 && tend >= 1e4;
  for (std::size_t k = 0; k < count; ++k) {
    const double s = static_cast<double>(k + 1) / static_cast<double>(count);
    grid[k] = logarithmic ? tend * std::pow(10.0, -10.0 * (1.0 - s)) : t0 + s * (tend - t0);
  }
  grid.back() = tend;
  return grid;
}

bool run_at_times(const loader::Plugin& problem_plugin, const loader::Plugin& solver_plugin,
                  const std::map<std::string, std::string>& params, double tol, const std::string& init,
                  const std::vector<double>& times, Trajectory& out, std::string* failure,
                  const std::vector<std::string>& sensitivities) {
  loader::ProblemInstance problem(problem_plugin, params);
  loader::SolverInstance solver(solver_plugin);
  RunSettings settings;
  settings.rtol = tol;
  if (!problem.info().atol_scale) settings.atol = tol;
  settings.max_steps = 10000000;
  settings.init = init;
  settings.output = DK_OUTPUT_SAVEAT;
  settings.saveat = times;
  settings.sensitivities = sensitivities;
  settings.sensitivity_error_control = !sensitivities.empty();
  PreparedRun prepared(problem, solver, settings);
  out = Trajectory{};
  const dk_result result = solve_checked(problem, solver, prepared.options(), out, /*with_events=*/false);
  const auto status = static_cast<Status>(result.status);
  if (is_success(status) && out.t.size() == times.size()) return true;
  *failure = std::string(status_name(status)) + ": " +
             (is_success(status) ? "it gave " + std::to_string(out.t.size()) + " of the " +
                                       std::to_string(times.size()) + " points asked for"
                                 : std::string(result.message));
  return false;
}

Trajectory reference_trajectory(const loader::Registry& registry, const ReferenceSpec& spec,
                                const std::string& cache_dir, double timeout_s, bool* from_cache) {
  const loader::Plugin* problem_plugin = registry.find(spec.problem);
  const loader::Plugin* solver_plugin = registry.find(spec.solver);
  if (!problem_plugin || !solver_plugin) throw UsageError("reference: unknown problem or solver");
  std::ostringstream key;
  key.precision(17);
  key << "problem=" << spec.problem << "@" << problem_plugin->manifest.version << ";params=";
  for (const auto& [k, v] : spec.params) key << k << "=" << v << ",";
  key << ";solver=" << spec.solver << "@" << solver_plugin->manifest.version << ";init=" << spec.init
      << ";tol=" << spec.tol
      << ";grid=" << spec.grid.size() << ":" << spec.grid.front() << ":" << spec.grid.back();
  std::ostringstream times;  // two grids with the same ends (uniform, logarithmic) differ here
  times.precision(17);
  for (double t : spec.grid) times << t << ",";
  key << ":" << std::hex << fnv1a(times.str());
  if (!spec.sensitivities.empty()) {
    key << ";sensitivities=";
    for (const auto& q : spec.sensitivities) key << q << ",";
  }
  std::ostringstream name;
  name << "reference-" << spec.problem << "-" << std::hex << fnv1a(key.str()) << ".json";
  const std::filesystem::path file = std::filesystem::path(cache_dir) / name.str();

  if (std::ifstream in{file}) {
    try {
      const auto j = nlohmann::json::parse(in);
      if (j.at("key") == key.str()) {
        *from_cache = true;
        Trajectory cached;
        cached.t = j.at("t").get<std::vector<double>>();
        cached.y = j.at("y").get<std::vector<double>>();
        cached.n = j.at("n").get<std::size_t>();
        cached.sensitivity_names = j.at("sensitivity_names").get<std::vector<std::string>>();
        cached.s = j.at("s").get<std::vector<double>>();
        return cached;
      }
    } catch (const std::exception&) {
      // unreadable cache entry: compute it again
    }
  }

  // The run is plugin code like every point: in a child, with the sweep's time limit, so
  // that a crashing or hanging reference model ends with a message, not the sweep.
  const ChildOutcome end = run_in_child(
      [&] {
        Trajectory run;
        std::string why;
        if (!run_at_times(*problem_plugin, *solver_plugin, spec.params, spec.tol, spec.init, spec.grid, run, &why,
                          spec.sensitivities))
          return nlohmann::json{{"status", "failed"}, {"message", why}}.dump();
        return nlohmann::json{{"status", "success"}, {"n", run.n}, {"t", run.t}, {"y", run.y},
                              {"sensitivity_names", run.sensitivity_names}, {"s", run.s}}
            .dump();
      },
      timeout_s);
  // %g, not std::to_string: a tolerance of 1e-12 must not print as 0.000000.
  std::ostringstream failed;
  failed << "the reference run (" << spec.solver << " at tol " << spec.tol << " on " << spec.problem << ") failed: ";
  nlohmann::json j;
  if (end.finished()) {
    try {
      j = nlohmann::json::parse(end.payload);
    } catch (const std::exception&) {
      // no result from the child: its stderr said why
    }
  }
  if (!j.is_object()) throw UsageError(failed.str() + end.describe(timeout_s));
  if (j.value("status", "") != "success") throw UsageError(failed.str() + j.value("message", ""));
  Trajectory trajectory;
  trajectory.n = j.at("n").get<std::size_t>();
  trajectory.t = j.at("t").get<std::vector<double>>();
  trajectory.y = j.at("y").get<std::vector<double>>();
  trajectory.sensitivity_names = j.at("sensitivity_names").get<std::vector<std::string>>();
  trajectory.s = j.at("s").get<std::vector<double>>();
  std::filesystem::create_directories(cache_dir);
  const std::string text = nlohmann::json{{"key", key.str()}, {"n", trajectory.n}, {"t", trajectory.t},
                                          {"y", trajectory.y}, {"sensitivity_names", trajectory.sensitivity_names},
                                          {"s", trajectory.s}}
                               .dump();
  write_file_checked(file, [&](std::ostream& o) { o << text << "\n"; });
  *from_cache = false;
  return trajectory;
}

}  // namespace daekit::host::wpd
