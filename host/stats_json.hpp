// A solve's statistics as JSON and back, every field of api::stat_fields() under its name:
// the run report's `stats`, wpd's rows and journal, ensemble members, and the messages
// between a run's child and its parent all use these two.
#pragma once

#include <daekit/abi.h>
#include <nlohmann/json.hpp>

namespace daekit::host {

// with_beside: also the fields a run reports beside `stats` (wall_s, jacobian, linear_algebra).
nlohmann::json stats_to_json(const dk_stats& stats, bool with_beside);
// Fields missing from `j` (a journal written by an older daekit) stay 0.
dk_stats stats_from_json(const nlohmann::json& j);

}  // namespace daekit::host
