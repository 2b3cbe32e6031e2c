#include "member_task.hpp"

#include <chrono>
#include <daekit/api/run_setup.hpp>
#include <daekit/status.hpp>

#include "../run_settings_json.hpp"
#include "../farm/task_kinds.hpp"
#include "../stats_json.hpp"

namespace daekit::host::ensemble {

nlohmann::json execute_member(const loader::Registry& registry, const nlohmann::json& input,
                              const farm::SharedData&) {
  nlohmann::json out;
  try {
    loader::ProblemInstance problem(*registry.find(input.at("problem").get<std::string>()),
                                    input.at("params").get<std::map<std::string, std::string>>());
    loader::SolverInstance solver(*registry.find(input.at("solver").get<std::string>()));
    api::RunSettings settings = settings_from_json(input.at("settings"));
    settings.output = DK_OUTPUT_END;
    // The recorded variables, computed as the end point arrives (an FMU's outputs too).
    settings.output_vars = input.at("outputs").get<std::vector<std::string>>();
    api::PreparedRun prepared(problem, solver, settings);
    api::Trajectory trajectory;
    const auto start = std::chrono::steady_clock::now();
    const dk_result result = api::solve_checked(problem, solver, prepared.options(), trajectory, /*with_events=*/false,
                                                &prepared.variables());
    out["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out["status"] = std::string(status_name(static_cast<Status>(result.status)));
    out["message"] = std::string(result.message);
    out["stats"] = stats_to_json(result.stats, /*with_beside=*/false);
    if (is_success(static_cast<Status>(result.status)) && !trajectory.t.empty()) {
      const std::size_t width = trajectory.variable_names.size();
      out["t_end"] = trajectory.t.back();
      out["outputs"] = std::vector<double>(trajectory.variables.end() - static_cast<std::ptrdiff_t>(width),
                                           trajectory.variables.end());
    }
  } catch (const std::exception& e) {
    out["status"] = "invalid_input";
    out["message"] = e.what();
  }
  return out;
}

// Worker ranks can be sent members.
const farm::TaskKindRegistration member_kind(member_task_kind, execute_member);

}  // namespace daekit::host::ensemble
