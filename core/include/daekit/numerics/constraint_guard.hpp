// Sign constraints on components (ABI 1.2; the codes of SUNDIALS' IDASetConstraints):
// y >= 0, y > 0, y <= 0, y < 0. Checked where a step ends, after its error test passed.
// Why: an error test controls the local error, not where the solution goes; a
// concentration driven slightly below zero can follow an unstable branch of the ODE
// accurately (Robertson's equilibrium at loose tolerances), and no error estimate sees it.
//  * A violation beyond the component's tolerance (atol_i + rtol_i |y_i|) rejects the
//    step; the next try is shortened towards the linear estimate of the crossing.
//  * A violation within it (rounding, Newton's remainder) is projected onto the bound
//    (non-strict codes only), so the solution never starts a step on the wrong side.
//    A projection adds to the component what no step of the method would: Robertson's
//    y1 + y2 + y3 = 1, which every Runge-Kutta, Rosenbrock and BDF step keeps, grows by
//    each projected amount. So projections are charged to a budget per component, the
//    component's tolerance at the bound (atol_i) for the whole run: a violation the
//    budget no longer covers rejects the step like one beyond the tolerance, and the
//    solution never moves further than the error test allows (docs/solvers/README.md's
//    guarantee). Rounding-level violations (a few ulps of the step's change) are free.
// A strict constraint (> 0, < 0) is never projected: any value on the wrong side rejects.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <cstdint>
#include <string>

#include "daekit/eigen_abi.hpp"

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
  // project_rounding false: rounding-level violations stay as they are (a solver whose
  // projection costs a restart, SUNDIALS', does not pay it for an ulp).
  Verdict check(const Eigen::VectorXd& y_start, Eigen::VectorXd& y_end, double* shrink, std::string* why,
                bool project_rounding = true);

  // Whether y satisfies every constraint (for initial values); *why names the first violation.
  bool satisfied(const Eigen::VectorXd& y, std::string* why) const;

 private:
  const ProblemView& problem_;
  const SolveRequest& request_;
  // A few ulps of a step's change: what no tolerance needs to pay for.
  static double rounding(double start, double end);
  // Whether component i's violation v may be projected: within its tolerance, not strict,
  // and covered by what is left of its budget (or by round_off, its rounding level).
  bool projectable(Eigen::Index i, double v, double start, double end, double round_off) const;

  const std::int8_t* codes_;
  Eigen::VectorXd projected_;  // what projections added to each component so far
};

}  // namespace daekit
