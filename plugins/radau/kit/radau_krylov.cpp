#include "daekit/kits/radau/radau_krylov.hpp"

namespace daekit {

std::optional<StepAttempt> RadauKrylov::prepare(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0,
                                                double shift, bool fresh) {
  if (fresh || stale_ || shift != prepared_shift_) {
    const Eval e = krylov_.prepare_preconditioner(t, y, f0, 1.0 / shift, fresh || stale_);
    if (e != Eval::ok)
      return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                                 "the preconditioner could not be set up: " + problem_.last_message(), 0.5);
    prepared_shift_ = shift;
    stale_ = false;
  }
  krylov_.linearise_at(t, y, y, 1.0 / shift, shift);
  return std::nullopt;
}

std::optional<StepAttempt> RadauKrylov::outcome(KrylovSolver::Outcome outcome) {
  if (outcome == KrylovSolver::Outcome::model_failed) {
    const Eval e = krylov_.model_failure();
    return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                               problem_.last_message(), 0.5);
  }
  if (outcome == KrylovSolver::Outcome::failed) {
    stale_ = true;
    return StepAttempt::failed(StepAttempt::Kind::convergence, "the Krylov method made no progress on a Radau system",
                               0.5);
  }
  if (outcome == KrylovSolver::Outcome::reduced) inexact_ = true;
  return std::nullopt;
}

std::optional<StepAttempt> RadauKrylov::solve_real(const Eigen::VectorXd& b, Eigen::VectorXd& x, double tol) {
  return outcome(krylov_.solve(weights_, b, x, tol));
}

std::optional<StepAttempt> RadauKrylov::solve_complex(double a, double b, Eigen::VectorXd& re, Eigen::VectorXd& im,
                                                      double tol) {
  return outcome(krylov_.solve_complex(a, b, weights_, re, im, re, im, tol));
}

}  // namespace daekit
