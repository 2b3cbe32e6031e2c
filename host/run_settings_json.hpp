// Run settings as JSON, the form in which a run's settings travel to the child or rank that
// runs it (wpd points, ensemble members) and are recorded in results.json. Every field but
// the output mode and times, which each run sets for itself.
#pragma once

#include <daekit/api/run_setup.hpp>
#include <nlohmann/json.hpp>

namespace daekit::host {

nlohmann::json settings_to_json(const api::RunSettings& s);
api::RunSettings settings_from_json(const nlohmann::json& j);

}  // namespace daekit::host
