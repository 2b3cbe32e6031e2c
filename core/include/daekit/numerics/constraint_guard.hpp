// Sign constraints on components (ABI 1.2; the codes of SUNDIALS' IDASetConstraints):
// y >= 0, y > 0, y <= 0, y < 0. Checked where a step ends, after its error test passed.
// Why: an error test controls the local error, not where the solution goes; a
// concentration driven slightly below zero can follow an unstable branch of the ODE
// accurately (Robertson's equilibrium at loose tolerances), and no error estimate sees it.
//  * A violation beyond the component's tolerance (atol_i + rtol_i |y_i|) rejects the
//    step; the next try is shortened towards the linear estimate of the crossing.
//  * A violation within it (rounding, Newton's remainder) is projected onto the bound
//    (non-strict codes only), so the solution never starts a step on the wrong side.
// A strict constraint (> 0, < 0) is never projected: any value on the wrong side rejects.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>

namespace daekit {

class ProblemView;
struct SolveRequest;

class ConstraintGuard {
 public:
  ConstraintGuard(const ProblemView& problem, const SolveRequest& request);
  bool active() const { return codes_ != nullptr; }

  enum class Verdict { satisfied, projected, violated };
  // y_start: the step's start; y_end: its end, projected in place when that suffices.
  // On `violated`, *shrink is the factor for the next try and *why names the component.
  Verdict check(const Eigen::VectorXd& y_start, Eigen::VectorXd& y_end, double* shrink, std::string* why) const;

  // Whether y satisfies every constraint (for initial values); *why names the first violation.
  bool satisfied(const Eigen::VectorXd& y, std::string* why) const;

 private:
  const ProblemView& problem_;
  const SolveRequest& request_;
  const std::int8_t* codes_;
};

}  // namespace daekit
