// A member of an ensemble as a run of the task farm: one solve of the problem with the
// member's parameters, reporting its status, statistics and the chosen outputs at the end.
#pragma once

#include <nlohmann/json.hpp>

#include "../farm/task_farm.hpp"

namespace daekit::host::ensemble {

constexpr const char* member_task_kind = "ensemble-member";

// input: problem, solver, params (all, as text), settings (RunSettings as JSON), outputs (names of components or of the problem's outputs).
nlohmann::json execute_member(const loader::Registry& registry, const nlohmann::json& input,
                              const farm::SharedData& shared);

}  // namespace daekit::host::ensemble
