// The statistics of a solve, declared once: every field of dk_stats with the name, meaning
// and unit under which the run report (--report json), wpd's and ensemble's results, the
// Python module and docs/statistics.md show it. A new statistic is a row here; every
// consumer reads the table (tests/api/test_stat_fields.cpp holds the docs to it).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <variant>

#include "daekit/abi.h"

namespace daekit::api {

struct StatField {
  std::string_view name;     // the key everywhere
  std::string_view meaning;  // one line, for the docs
  std::string_view unit;     // "count", "s", "order", "step", or "name" (a text value)
  std::variant<std::int64_t dk_stats::*, std::int32_t dk_stats::*, double dk_stats::*> member;
  // Reported by a run beside its statistics rather than inside `stats` (the run report's
  // top-level wall_s, jacobian and linear_algebra keys, older than this table).
  bool beside_stats = false;
  // For a "name" field: the name of each value (null when the solver did not say).
  const char* (*value_name)(std::int32_t) = nullptr;
  // Since which ABI minor version a solver fills it (0 from an older plugin).
  int since_minor = 0;
};

// The names of the two "name" fields' values: "analytic", "finite differences" or "none";
// "dense", "sparse" or null (the solver did not say).
const char* jacobian_name(std::int32_t jacobian_used);
const char* linear_algebra_name(std::int32_t linear_algebra);

// Every field, in dk_stats' order.
std::span<const StatField> stat_fields();

// A field's value: a count or integer, a real, or a name (null: the solver did not say).
using StatValue = std::variant<std::int64_t, double, const char*>;
StatValue stat_value(const dk_stats& stats, const StatField& field);
// Adds `one` to `total` for the counts and the seconds (a sum over solves means something);
// the others (orders, steps, names) become `one`'s.
void add_stats(dk_stats& total, const dk_stats& one);
// Sets a count, integer or real field (a name field is read back by its value_name).
void set_stat(dk_stats& stats, const StatField& field, const StatValue& value);

}  // namespace daekit::api
