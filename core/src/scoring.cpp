#include "daekit/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/abi.h"

namespace daekit {

Accuracy score(const Eigen::VectorXd& y, const Eigen::VectorXd& yref, const std::uint8_t* scored,
               const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol, const std::uint8_t* index) {
  Accuracy a;
  double rel = 0.0, mixed = 0.0;
  std::array<double, 3> rel_by_index{-1.0, -1.0, -1.0};  // < 0: no component of that index
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double err = std::abs(y[i] - yref[i]);
    a.max_abs_error = std::max(a.max_abs_error, err);
    const double r = rtol[i] > 0.0 ? rtol[i] : 1.0;
    mixed = std::max(mixed, err / (atol[i] / r + std::abs(yref[i])));
    if (scored && scored[i] == DK_SCORED_NO) continue;
    double e = err;
    if (!scored || scored[i] != DK_SCORED_ABSOLUTE) {
      if (std::abs(yref[i]) < 1e-200) continue;
      e = err / std::abs(yref[i]);
    }
    rel = std::max(rel, e);
    const int k = index ? std::clamp<int>(index[i], 1, 3) - 1 : 0;
    rel_by_index[k] = std::max(rel_by_index[k], e);
    ++a.scored_components;
  }
  // NaN must not score as accurate.
  if (!y.allFinite()) rel = mixed = std::numeric_limits<double>::infinity();
  a.max_rel_error = rel;
  a.scd = -std::log10(rel == 0.0 ? 1e-16 : rel);
  a.mescd = -std::log10(mixed == 0.0 ? 1e-16 : mixed);
  for (int k = 0; k < 3; ++k) {
    if (rel_by_index[k] < 0.0) continue;
    const double r = y.allFinite() ? rel_by_index[k] : std::numeric_limits<double>::infinity();
    a.scd_by_index[k] = -std::log10(r == 0.0 ? 1e-16 : r);
  }
  return a;
}

}  // namespace daekit
