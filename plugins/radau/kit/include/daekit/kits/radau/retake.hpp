// The accepted step taken again from its start to an event inside it (numerics/driver.hpp,
// `retake`), as both Radau steppers do it: f at the start anew (f0_ is the next step's
// then), the kept Jacobian first, as any serves the simplified Newton iteration, and once
// more with one at the start where Newton failed with an older one, as after a rejection.
// Each attempt starts its stages from the accepted step's collocation polynomial
// (retake_from_), which stays the dense output.
#pragma once

#include <Eigen/Core>
#include <limits>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/driver.hpp"

namespace daekit::radau_detail {

// `before_attempt` resets what the stepper's own retry rules would read into an attempt.
template <class Stepper, class BeforeAttempt>
StepAttempt retake_step(Stepper& s, double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end,
                        BeforeAttempt before_attempt) {
  s.retake_from_ = &y;
  StepAttempt a;
  for (const bool fresh : {false, true}) {
    if (fresh && (a.kind != StepAttempt::Kind::convergence || s.jac_current_)) break;
    s.have_f0_ = false;
    s.have_jac_ = !fresh;
    s.last_t_ = std::numeric_limits<double>::quiet_NaN();  // not a retry of a rejected step
    before_attempt();
    a = s.attempt(t, h, y);
  }
  s.retake_from_ = nullptr;
  s.have_f0_ = false;
  if (a.kind == StepAttempt::Kind::ok && a.error <= 1.0) y_end = s.y_new_;
  return a;
}

}  // namespace daekit::radau_detail
