// A point of a sweep as a run of the task farm (farm/task_farm.hpp): the JSON that
// carries it to whichever rank runs it, and what that rank does with it.
#pragma once

#include <nlohmann/json.hpp>

#include "../farm/task_farm.hpp"
#include "sweep.hpp"

namespace daekit::host::wpd {

constexpr const char* point_task_kind = "wpd-point";

// The shared-data keys of a problem's reference trajectories: on l2_grid() (`l2`) and on
// uniform_times() (`L2`, `Linf`).
std::string reference_key(const std::string& problem);
std::string uniform_reference_key(const std::string& problem);
nlohmann::json trajectory_to_json(const Trajectory& t);

// The task of point p. n: the problem's size, for the expected cost; the reference
// trajectories it is scored against, when shared.
farm::Task point_task(const Point& p, const SweepOptions& o, std::size_t n, bool with_l2_reference,
                      bool with_uniform_reference);

// The Executor of point tasks: `runs` solves, the median wall time, accuracy.
nlohmann::json execute_point(const loader::Registry& registry, const nlohmann::json& input,
                             const farm::SharedData& shared);

// The row of a point from how its run ended.
void read_outcome(const farm::TaskOutcome& outcome, PointResult& r, double timeout);

}  // namespace daekit::host::wpd
