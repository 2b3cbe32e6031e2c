#include "covariance.hpp"

#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <sstream>

namespace daekit::fit {

Uncertainty uncertainty(const std::vector<ResolvedEstimate>& estimates, const std::vector<double>& values,
                        const std::vector<double>& jacobian, std::size_t m, double confidence) {
  const auto ns = static_cast<Eigen::Index>(estimates.size());
  Eigen::MatrixXd j(static_cast<Eigen::Index>(m), ns);
  for (Eigen::Index r = 0; r < j.rows(); ++r)
    for (Eigen::Index k = 0; k < ns; ++k) j(r, k) = jacobian[static_cast<std::size_t>(r * ns + k)];
  // Columns scaled by |value| (1 for a value at 0): rate constants of 1e-2 and 3e7 are
  // identifiable alike, and the rank test then judges relative changes.
  Eigen::VectorXd scale(ns);
  for (Eigen::Index k = 0; k < ns; ++k) {
    const double v = std::abs(values[static_cast<std::size_t>(k)]);
    scale(k) = v > 0 ? v : 1.0;
  }
  const Eigen::MatrixXd scaled = j * scale.asDiagonal();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(scaled, Eigen::ComputeThinV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  Uncertainty u;
  const double largest = sigma.size() > 0 ? sigma(0) : 0.0;
  // Beyond this the covariance's entries carry no correct digit.
  const double floor = largest * 1e-8;
  if (static_cast<Eigen::Index>(m) < ns || largest == 0 || sigma(sigma.size() - 1) <= floor) {
    std::ostringstream why;
    why << "J^T J is singular to working precision";
    if (static_cast<Eigen::Index>(m) < ns) why << " (" << m << " measurements for " << ns << " estimates)";
    else if (largest > 0) why << " (condition number of the scaled J " << largest / sigma(sigma.size() - 1) << ")";
    why << ": the data do not determine";
    const Eigen::VectorXd direction = svd.matrixV().col(svd.matrixV().cols() - 1);
    bool first = true;
    for (Eigen::Index k = 0; k < direction.size(); ++k)
      if (std::abs(direction(k)) > 0.1) {
        why << (first ? " " : ", ") << estimates[static_cast<std::size_t>(k)].spec.name;
        first = false;
      }
    why << " apart";
    u.identifiability = why.str();
    return u;
  }
  const Eigen::MatrixXd v = svd.matrixV();
  const Eigen::MatrixXd scaled_covariance = v * sigma.cwiseInverse().cwiseAbs2().asDiagonal() * v.transpose();
  const Eigen::MatrixXd covariance = scale.asDiagonal() * scaled_covariance * scale.asDiagonal();
  const double z = boost::math::quantile(boost::math::normal(), 0.5 + confidence / 2);
  for (Eigen::Index a = 0; a < ns; ++a)
    for (Eigen::Index b = 0; b < ns; ++b) u.covariance.push_back(covariance(a, b));
  for (Eigen::Index k = 0; k < ns; ++k) {
    const double value = values[static_cast<std::size_t>(k)], se = std::sqrt(covariance(k, k));
    u.standard_errors.push_back(se);
    if (estimates[static_cast<std::size_t>(k)].spec.log_scale) {
      // Normal in log(value): the interval's ends are exp of log's, never below 0.
      const double se_log = se / value;
      u.lower.push_back(value * std::exp(-z * se_log));
      u.upper.push_back(value * std::exp(z * se_log));
    } else {
      u.lower.push_back(value - z * se);
      u.upper.push_back(value + z * se);
    }
  }
  return u;
}

}  // namespace daekit::fit
