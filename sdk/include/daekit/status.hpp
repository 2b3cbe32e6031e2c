// Status and evaluation codes as C++ enums, with the names the host prints and
// the `--report json` "status" field carries. The numeric values are the ABI's.
#pragma once

#include <cstdint>
#include <string_view>

#include "daekit/abi.h"

namespace daekit {

enum class Status : std::int32_t {
  success = DK_STATUS_SUCCESS,
  stopped_by_observer = DK_STATUS_STOPPED_BY_OBSERVER,
  stopped_by_event = DK_STATUS_STOPPED_BY_EVENT,
  invalid_input = DK_STATUS_INVALID_INPUT,
  too_many_steps = DK_STATUS_TOO_MANY_STEPS,
  step_size_too_small = DK_STATUS_STEP_SIZE_TOO_SMALL,
  singular_matrix = DK_STATUS_SINGULAR_MATRIX,
  error_test_failures = DK_STATUS_ERROR_TEST_FAILURES,
  convergence_failures = DK_STATUS_CONVERGENCE_FAILURES,
  evaluation_failure = DK_STATUS_EVALUATION_FAILURE,
  inconsistent_initial_values = DK_STATUS_INCONSISTENT_INITIAL_VALUES,
  tolerances_too_small = DK_STATUS_TOLERANCES_TOO_SMALL,
  unsupported_problem = DK_STATUS_UNSUPPORTED_PROBLEM,
  too_many_events = DK_STATUS_TOO_MANY_EVENTS,
  internal_error = DK_STATUS_INTERNAL_ERROR,
};

enum class Eval : std::int32_t {
  ok = DK_EVAL_OK,
  recoverable = DK_EVAL_RECOVERABLE,
  not_provided = DK_EVAL_NOT_PROVIDED,
  fatal = DK_EVAL_FATAL,
};

enum class MassKind : std::uint32_t {
  identity = DK_MASS_IDENTITY,
  constant = DK_MASS_CONSTANT,
  time_dependent = DK_MASS_TIME_DEPENDENT,
  state_dependent = DK_MASS_STATE_DEPENDENT,
};

constexpr std::string_view status_name(Status s) {
  switch (s) {
    case Status::success: return "success";
    case Status::stopped_by_observer: return "stopped_by_observer";
    case Status::stopped_by_event: return "stopped_by_event";
    case Status::invalid_input: return "invalid_input";
    case Status::too_many_steps: return "too_many_steps";
    case Status::step_size_too_small: return "step_size_too_small";
    case Status::singular_matrix: return "singular_matrix";
    case Status::error_test_failures: return "error_test_failures";
    case Status::convergence_failures: return "convergence_failures";
    case Status::evaluation_failure: return "evaluation_failure";
    case Status::inconsistent_initial_values: return "inconsistent_initial_values";
    case Status::tolerances_too_small: return "tolerances_too_small";
    case Status::unsupported_problem: return "unsupported_problem";
    case Status::too_many_events: return "too_many_events";
    case Status::internal_error: return "internal_error";
  }
  return "internal_error";
}

constexpr bool is_success(Status s) {
  return s == Status::success || s == Status::stopped_by_observer || s == Status::stopped_by_event;
}

constexpr std::string_view mass_kind_name(MassKind m) {
  switch (m) {
    case MassKind::identity: return "identity";
    case MassKind::constant: return "constant";
    case MassKind::time_dependent: return "time-dependent";
    case MassKind::state_dependent: return "state-dependent";
  }
  return "unknown";
}

}  // namespace daekit
