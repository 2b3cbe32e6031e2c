// Accuracy as the IVP Test Set reports it (release 2.4, formulas II.1 and II.2):
//   scd   = -log10 max_i |y_i - yref_i| / |yref_i|        over the scored components
//   mescd = -log10 max_i |y_i - yref_i| / (atol_i / rtol_i + |yref_i|)   over all components
// Components with |yref_i| < 1e-200 are left out of scd, and an exact match counts
// as an error of 1e-16 (so both are capped at 16), as the test set's report.f does.
// Components marked DK_SCORED_ABSOLUTE enter scd with their absolute error.
//
// scd_by_index splits scd by the components' DAE index: index-2 and -3 components
// (velocities, multipliers) get errors h^(k-1) times larger than the tolerance asks for
// from solvers that scale their error test that way, and one scd over all of them hides it.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <limits>


namespace daekit {

struct Accuracy {
  double scd = 0.0;
  double mescd = 0.0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;  // over the scored components
  int scored_components = 0;
  // scd over the scored components of index 1, 2 and 3 (entries 0-2); NaN where none is scored.
  std::array<double, 3> scd_by_index{std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::quiet_NaN()};
  // The maxima the digits come from, for scores of parts of one vector to be merged: the
  // mixed error of mescd, and the relative error by index (< 0 where none is scored).
  double max_mixed_error = 0.0;
  std::array<double, 3> max_rel_error_by_index{-1.0, -1.0, -1.0};
};

// `index`: n entries of the components' DAE index (1-3), or nullptr (all index 1).
Accuracy score(const Eigen::VectorXd& y, const Eigen::VectorXd& yref, const std::uint8_t* scored,
               const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol, const std::uint8_t* index = nullptr);

// The score of the whole vector from the scores of its parts (the ranks' owned rows of a
// problem spread over MPI ranks): the same numbers score() gives for the whole.
Accuracy merged(const Accuracy& a, const Accuracy& b);

}  // namespace daekit
