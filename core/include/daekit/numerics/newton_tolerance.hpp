// When a Newton iteration has converged, in units of the error norm: RADAU5's FNEWT rule,
// tighter at tight tolerances, never below what rounding allows (10 u / rtol). Radau uses
// it with RADAU5's cap 0.03; the BDF with DASSL's 0.33 (docs/solvers/bdf.md says why).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

inline double newton_tolerance(double rtol, double cap) {
  constexpr double uround = std::numeric_limits<double>::epsilon();
  return std::max(10.0 * uround / rtol, std::min(cap, std::sqrt(rtol)));
}

}  // namespace daekit
