// What a work-precision sweep means the same in the command (`daekit wpd`) and the Python
// module (`daekit.wpd`): the tolerance list's syntax and how a final value is scored when
// the problem has no reference of its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace daekit::api {

// "1e-4:1e-10" (one per decade), "1e-4:1e-10:2" (two per decade) or "1e-4,1e-6,1e-8",
// from the first tolerance to the last; a UsageError naming `what` for bad text.
std::vector<double> parse_tolerances(const std::string& spec, const std::string& what = "--tols");

// A problem without a reference is scored against this solver's solution at this
// tolerance (rtol = atol); `daekit wpd --reference-solver/--reference-tol` choose others.
inline constexpr const char* default_reference_solver = "rodas5p";
inline constexpr double default_reference_tol = 1e-12;
// Sweeps go to tight tolerances: a step limit a point (or its reference) is unlikely to
// meet by accident.
inline constexpr std::int64_t sweep_max_steps = 1000000;

}  // namespace daekit::api
