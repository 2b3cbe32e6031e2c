// The weighted error norms every solver uses. Component i is measured against
// atol_i + rtol_i * max(|y_old_i|, |y_new_i|); with index scaling its error is
// first multiplied by h^(k_i - 1) for a component of DAE index k_i (Hairer &
// Wanner's treatment of index-2/3 variables in RADAU5), and with
// `suppress_algebraic` algebraic components leave the test (IDA's suppressalg).
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/per_component.hpp"

namespace daekit {

class ProblemView;
struct SolveRequest;

class ErrorNorm {
 public:
  ErrorNorm() = default;
  ErrorNorm(const PerComponent& rtol, const PerComponent& atol, std::vector<int> index,
            std::vector<bool> included, bool index_scaling);

  // `error_test` false: the norm of a Newton iteration, which keeps the components
  // the error test suppresses.
  static ErrorNorm for_request(const SolveRequest& request, const ProblemView& problem, bool error_test = true);

  // Root mean square over the included components.
  double rms(const Eigen::VectorXd& err, const Eigen::VectorXd& y_old, const Eigen::VectorXd& y_new,
             double h) const;
  // Largest weighted component.
  double max(const Eigen::VectorXd& err, const Eigen::VectorXd& y_old, const Eigen::VectorXd& y_new,
             double h) const;
  // 1 / (atol_i + rtol_i |y_i|), without index scaling: for initial steps and Newton tests.
  void weights(const Eigen::VectorXd& y, Eigen::VectorXd& w) const;

 private:
  // Per component: -1 out of the norm, else the power of h its error is multiplied by
  // (k - 1 for index k with index scaling, 0 otherwise).
  static constexpr int kMaxPower = 7;  // index 8; the loader admits 1 to 3
  using Powers = std::array<double, kMaxPower + 1>;
  // |h|^k for k = 0 .. max_power_ (h itself for k = 1, std::pow above).
  Powers powers_of(double h) const;

  PerComponent rtol_, atol_;
  std::vector<signed char> power_;
  int max_power_ = 0;
  Eigen::Index count_ = 0;
  // One rtol and one atol for all, every component included, no index scaling to apply.
  bool uniform_ = false;
};

}  // namespace daekit
