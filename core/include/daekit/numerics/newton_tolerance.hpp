// When a Newton iteration has converged, in units of the error norm: RADAU's FNEWT rule,
// rtol^power capped, tighter at tight tolerances, never below what rounding allows
// (10 u / rtol). Radau uses it with the cap 0.03 and power 2s/(s+1) - 1 for s stages
// (1/2 for radau5's three); the BDF with DASSL's cap 0.33 (docs/solvers/bdf.md says why).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

inline double newton_tolerance(double rtol, double cap, double power = 0.5) {
  constexpr double uround = std::numeric_limits<double>::epsilon();
  return std::max(10.0 * uround / rtol, std::min(cap, std::pow(rtol, power)));
}

}  // namespace daekit
