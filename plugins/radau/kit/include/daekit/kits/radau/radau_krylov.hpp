// The Radau methods' stage systems solved by a Krylov method (linear_solver=krylov), for
// radau5 and radauiia alike: E1 = (g/h) M - J and the complex E_k = ((a_k + i b_k)/h) M - J
// with J only through products at the step's start, the complex ones as real systems of
// twice the size (numerics/newton_krylov.hpp), all preconditioned by the one real
// preconditioner prepared for E1's shift. The residuals are measured in the error norm's
// weights (1/scal), each Newton correction to the method's fraction of the Newton
// tolerance. A Krylov method that makes no progress fails the step, which is retried
// smaller with a new preconditioner; one that reduced the residual gives an inexact
// Newton correction, as in the other families.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/newton_krylov.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

class RadauKrylov {
 public:
  RadauKrylov(NewtonKrylov& krylov, ProblemView& problem) : krylov_(krylov), problem_(problem) {}

  // At a step's start (t, y), f0 = f(t, y), E1's shift g/h: the preconditioner renewed
  // with new Jacobian data (`fresh`) or for a new shift, and J v linearised at (t, y).
  std::optional<StepAttempt> prepare(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0, double shift,
                                     bool fresh);
  // The error norm's scale (atol + rtol |y|, index-weighted) of this step.
  void weigh(const Eigen::VectorXd& scal) { weights_ = scal.cwiseInverse(); }
  // A Newton correction's tolerance in the error norm, from the Newton tolerance.
  double tolerance(double newton_tolerance) const { return krylov_.settings().newton_fraction * newton_tolerance; }

  std::optional<StepAttempt> solve_real(const Eigen::VectorXd& b, Eigen::VectorXd& x, double tol);
  // (a + i b) M - J: re, im in, the solution's out.
  std::optional<StepAttempt> solve_complex(double a, double b, Eigen::VectorXd& re, Eigen::VectorXd& im, double tol);
  // After a solve that made no progress: the next step wants a new preconditioner.
  bool wants_fresh_preconditioner() const { return stale_; }

 private:
  std::optional<StepAttempt> outcome(KrylovSolver::Outcome outcome);

  NewtonKrylov& krylov_;
  ProblemView& problem_;
  Eigen::VectorXd weights_, re_, im_;
  double prepared_shift_ = 0.0;
  bool stale_ = false;
};

}  // namespace daekit
