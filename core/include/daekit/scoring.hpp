// Accuracy as the IVP Test Set reports it (release 2.4, formulas II.1 and II.2):
//   scd   = -log10 max_i |y_i - yref_i| / |yref_i|        over the scored components
//   mescd = -log10 max_i |y_i - yref_i| / (atol_i / rtol_i + |yref_i|)   over all components
// Components with |yref_i| < 1e-200 are left out of scd, and an exact match counts
// as an error of 1e-16 (so both are capped at 16), as the test set's report.f does.
// Components marked DK_SCORED_ABSOLUTE enter scd with their absolute error.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace daekit {

struct Accuracy {
  double scd = 0.0;
  double mescd = 0.0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;  // over the scored components
  int scored_components = 0;
};

Accuracy score(const Eigen::VectorXd& y, const Eigen::VectorXd& yref, const std::uint8_t* scored,
               const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol);

}  // namespace daekit
