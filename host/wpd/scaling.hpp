// The scaling diagram of a --param-sweep: for each setup, the median time to reach one
// target scd on each instance, against the swept parameter (log-log when every value is
// a positive number), with its data as CSV: what scripts/fekete-scaling.sh drew by hand.
#pragma once

#include <string>
#include <vector>

#include "outputs.hpp"

namespace daekit::host::wpd {

// Writes PROBLEM-scaling.csv, .dat and .gp into dir for each parameter sweep; returns the
// gnuplot scripts to run (none for a sweep where no setup reached the target anywhere).
// The target: --target-scd, else the lowest of the instances' common best scd (so every
// instance is judged at one accuracy).
std::vector<std::string> write_scaling(const std::string& dir, const std::vector<PointResult>& rows,
                                       const SweepInfo& info, const std::string& subtitle);

}  // namespace daekit::host::wpd
