// The Radau methods' stage systems solved by a Krylov method (linear_solver=krylov; radau5
// takes it, radauiia not yet: docs/krylov.md): E1 = (g/h) M - J and the complex
// E_k = ((a_k + i b_k)/h) M - J with J only through products at the step's start, the
// complex ones as real systems of twice the size (numerics/newton_krylov.hpp), all
// preconditioned by the one real preconditioner prepared for E1's shift. The residuals
// are measured in the error norm's weights (1/scal), each Newton correction to eplifac x
// the Newton tolerance. A Krylov method that makes no progress fails the step, which is
// retried smaller with a new preconditioner. One that reduced the residual but stopped
// short of its tolerance gives an inexact correction the iteration may go on from, but
// never stop on: the Radau iteration's test measures the correction, and GMRES stopped
// early returns one smaller than the true one (radau5 with eplifac = 0.005 on the
// brusselator, N = 128, ended 2 200 times the tolerance off when it stopped on such
// corrections, whose residuals were 10^6-10^7 times their tolerance).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <utility>

#include "daekit/eigen_abi.hpp"
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
  // A Newton correction's tolerance in the error norm: eplifac x the Newton tolerance, as
  // in the other families. It is an RMS over n components and the last correction goes
  // into the step's result, so a solve's error may gather in a few components: on the
  // brusselator (N = 128, rtol 1e-6) radau5 ended 1.6 times the tolerance off (its LUs
  // 0.01, bdf's 0.27); eplifac = 0.005 gives 0.03 for 1.3x the time. A tenth of eplifac
  // by default was tried and dropped: unpreconditioned on Robertson's DAE at atol 1e-13
  // the tighter solves left the Newton iteration failing down to steps of 1e-16.
  double tolerance(double newton_tolerance) const { return krylov_.settings().newton_fraction * newton_tolerance; }

  std::optional<StepAttempt> solve_real(const Eigen::VectorXd& b, Eigen::VectorXd& x, double tol);
  // (a + i b) M - J: re, im in, the solution's out.
  std::optional<StepAttempt> solve_complex(double a, double b, Eigen::VectorXd& re, Eigen::VectorXd& im, double tol);
  // After a solve that made no progress: the next step wants a new preconditioner.
  bool wants_fresh_preconditioner() const { return stale_; }
  // Whether a solve since the last call stopped short of its tolerance (and clears it):
  // the Newton iteration must not be taken as converged on its corrections.
  bool take_inexact() { return std::exchange(inexact_, false); }

 private:
  std::optional<StepAttempt> outcome(KrylovSolver::Outcome outcome);

  NewtonKrylov& krylov_;
  ProblemView& problem_;
  Eigen::VectorXd weights_;
  double prepared_shift_ = 0.0;
  bool stale_ = false, inexact_ = false;
};

}  // namespace daekit
