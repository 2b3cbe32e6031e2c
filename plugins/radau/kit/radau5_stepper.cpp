#include "daekit/kits/radau/radau5_stepper.hpp"

#include "daekit/kits/radau/radau5_coefficients.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace daekit {
using namespace radau5;

Radau5Stepper::Radau5Stepper(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                             IterationMatrix& matrix, Radau5Settings settings)
    : problem_(problem), request_(request), mass_(mass), matrix_(matrix), settings_(settings),
      scale_(problem, request) {
  const Eigen::Index n = problem.size();
  // RADAU5's tolerance transformation: rtol' = 0.1 rtol^(2/3), atol' = rtol' atol / rtol, so that
  // the error estimate (of lower order) matches the accuracy the user asked for.
  scale_.transform_tolerances(2.0 / 3.0);
  for (auto* v : {&f0_, &f_new_, &y_new_, &z1_, &z2_, &z3_, &f1_, &f2_, &f3_, &work_, &work2_, &stage_, &fz_, &mf1_,
                  &mf2_, &mf3_, &cont0_, &cont1_, &cont2_, &cont3_})
    v->setZero(n);
  complex_.setup(matrix);
  rhs_c_.resize(n);
  sol_c_.resize(n);
  if (request.wants_sensitivities()) sensitivities_.emplace(problem, request);
}

Eval Radau5Stepper::start(double t0, const Eigen::VectorXd& y0) {
  if (sensitivities_ && !sensitivities_->start(t0, y0, &sensitivities_failed_))
    sensitivities_failed_ = "the sensitivities at t0: " + sensitivities_failed_;
  return evaluate_f0(t0, y0);
}

Eval Radau5Stepper::evaluate_f0(double t, const Eigen::VectorXd& y) {
  const Eval e = problem_.rhs(t, y, f0_);
  have_f0_ = e == Eval::ok;
  return e;
}

// E1 = (u1/h) M - J (real) and E2 = ((alph + i beta)/h) M - J (complex).
bool Radau5Stepper::factorise(double h) {
  if (!matrix_.factor(u1 / h)) return false;
  const std::complex<double> shift(alph / h, beta / h);
  if (!complex_.factor(shift)) return false;
  factored_h_ = h;
  return true;
}

StepAttempt Radau5Stepper::attempt(double t, double h, const Eigen::VectorXd& y) {
  if (!sensitivities_failed_.empty()) return StepAttempt::failed(StepAttempt::Kind::fatal, sensitivities_failed_);
  retry_ = t == last_t_;  // the same point again: the last try was rejected
  last_t_ = t;
  if (std::optional<StepAttempt> failed = prepare_matrices(t, h, y)) return *failed;
  h_ = h;
  scale_.update(y, h);
  if (krylov_) krylov_->weigh(scale_.weights());
  start_stages(h);
  if (std::optional<StepAttempt> failed = solve_stages(t, h, y)) return *failed;
  double err_s = 0.0;
  if (sensitivities_) {
    const Radau5Stage stage{t, h, &y, {&z1_, &z2_, &z3_}, &matrix_, &complex_, &mass_, &scale_, settings_.max_newton};
    if (std::optional<StepAttempt> failed = sensitivities_->solve_stages(stage, &err_s)) {
      // s's iteration is linear: it fails only when the kept Jacobian is too far from the
      // stages' (y's converged anyway). The same step again with a new one, first.
      if (failed->kind == StepAttempt::Kind::convergence && !jac_current_) {
        have_jac_ = false;
        failed->shrink = 1.0;
      }
      return *failed;
    }
  }
  const double err = std::max(error_estimate(t, h, y), err_s);
  t_end_ = t + h;
  y_new_ = y + z3_;
  have_f_new_ = false;
  if (err <= 1.0) {
    StepAttempt failure;
    if (!evaluate_step_end(problem_, t + h, y_new_, f_new_, &failure, 0.5)) return failure;
    have_f_new_ = true;  // starts the next step
  }
  StepAttempt a;
  a.error = err;
  return a;
}


// f at the step's start, the Jacobian (renewed after a rejection unless it is from this
// point) and the factorisations for this h; a failure when one cannot be had.
std::optional<StepAttempt> Radau5Stepper::prepare_matrices(double t, double h, const Eigen::VectorXd& y) {
  if (!have_f0_) {
    Eval e = problem_.rhs(t, y, f0_);
    if (e != Eval::ok)
      return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                     problem_.last_message(), 0.5);
    have_f0_ = true;
  }
  if (retry_ && !jac_current_) have_jac_ = false;
  if (krylov_) {  // J v at the step's start, the preconditioner where the LUs would be renewed
    if (krylov_->wants_fresh_preconditioner()) have_jac_ = false;
    const bool fresh = !have_jac_;
    have_jac_ = jac_current_ = true;
    return krylov_->prepare(t, y, f0_, u1 / h, fresh);
  }
  bool new_matrix = false;
  if (!have_jac_) {
    Eval e = matrix_.evaluate_jacobian(t, y, f0_);
    if (e != Eval::ok)
      return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                     problem_.last_message(), 0.5);
    have_jac_ = jac_current_ = true;
    new_matrix = true;
  }
  if (new_matrix || h != factored_h_) {
    if (!factorise(h)) {
      ++problem_.stats().nsingular;
      return StepAttempt::failed(StepAttempt::Kind::singular, "the iteration matrices of the Radau stages are singular", 0.5);
    }
  }
  return std::nullopt;
}

std::optional<StepAttempt> Radau5Stepper::solve_real(const Eigen::VectorXd& b, Eigen::VectorXd& x, double tol) {
  if (!krylov_) {
    matrix_.solve(b, x);
    return std::nullopt;
  }
  return krylov_->solve_real(b, x, tol);
}

std::optional<StepAttempt> Radau5Stepper::solve_complex(double h, Eigen::VectorXd& re, Eigen::VectorXd& im, double tol) {
  if (!krylov_) {
    rhs_c_.real() = re;
    rhs_c_.imag() = im;
    complex_.solve(rhs_c_, sol_c_);
    ++problem_.stats().nsolve;
    re = sol_c_.real();
    im = sol_c_.imag();
    return std::nullopt;
  }
  return krylov_->solve_complex(alph / h, beta / h, re, im, tol);
}

// Starting values: zero on the first step, else the last accepted step's collocation
// polynomial extrapolated to the new stages (also when retrying with a smaller h), or for
// a re-take at its nodes from the accepted step's start.
void Radau5Stepper::start_stages(double h) {
  if (first_) {
    z1_.setZero(), z2_.setZero(), z3_.setZero();
    f1_.setZero(), f2_.setZero(), f3_.setZero();
    return;
  }
  if (retake_from_) {
    const double q = h / hold_;
    interpolate(c1 * q, z1_);
    interpolate(c2 * q, z2_);
    interpolate(q, z3_);
    z1_ -= *retake_from_;
    z2_ -= *retake_from_;
    z3_ -= *retake_from_;
  } else {
    const double c3q = h / hold_, c1q = c1 * c3q, c2q = c2 * c3q;
    z1_ = c1q * (cont1_ + (c1q - c2m1) * (cont2_ + (c1q - c1m1) * cont3_));
    z2_ = c2q * (cont1_ + (c2q - c2m1) * (cont2_ + (c2q - c1m1) * cont3_));
    z3_ = c3q * (cont1_ + (c3q - c2m1) * (cont2_ + (c3q - c1m1) * cont3_));
  }
  f1_ = ti11 * z1_ + ti12 * z2_ + ti13 * z3_;
  f2_ = ti21 * z1_ + ti22 * z2_ + ti23 * z3_;
  f3_ = ti31 * z1_ + ti32 * z2_ + ti33 * z3_;
}

// Simplified Newton iteration on the transformed stage system; a failure when it does not
// converge fast enough (with the step reduction RADAU5 asks for).
std::optional<StepAttempt> Radau5Stepper::solve_stages(double t, double h, const Eigen::VectorXd& y) {
  const Eigen::Index n = problem_.size();
  const Eigen::VectorXd& scal = scale_.weights();
  const double fac1 = u1 / h, alphn = alph / h, betan = beta / h;
  const int nit = settings_.max_newton;
  faccon_ = std::pow(std::max(faccon_, uround), 0.8);
  theta_ = std::abs(settings_.jacobian_reuse);
  double dynold = 0.0, thqold = 0.0;
  newton_ = 0;
  Stats& stats = problem_.stats();
  while (true) {
    if (newton_ >= nit)
      return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages did not converge", 0.5);
    Eval e = Eval::ok;
    for (int s = 0; s < 3 && e == Eval::ok; ++s) {
      const Eigen::VectorXd& z = s == 0 ? z1_ : s == 1 ? z2_ : z3_;
      stage_ = y + z;
      e = problem_.rhs(t + (s == 0 ? c1 : s == 1 ? c2 : 1.0) * h, stage_, s == 0 ? work_ : s == 1 ? work2_ : fz_);
    }
    if (e != Eval::ok)
      return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                     problem_.last_message(), 0.5);
    // Right-hand sides in the transformed variables.
    z1_ = ti11 * work_ + ti12 * work2_ + ti13 * fz_;
    z2_ = ti21 * work_ + ti22 * work2_ + ti23 * fz_;
    z3_ = ti31 * work_ + ti32 * work2_ + ti33 * fz_;
    apply_mass(f1_, mf1_);
    apply_mass(f2_, mf2_);
    apply_mass(f3_, mf3_);
    z1_ -= fac1 * mf1_;
    z2_ += -alphn * mf2_ + betan * mf3_;
    z3_ += -alphn * mf3_ - betan * mf2_;
    // The corrections to a fraction of the Newton tolerance (Krylov; the LUs are exact).
    const double linear_tol = krylov_ ? krylov_->tolerance(scale_.newton_tolerance()) : 0.0;
    if (auto failed = solve_real(z1_, work_, linear_tol)) return failed;
    z1_ = work_;
    if (auto failed = solve_complex(h, z2_, z3_, linear_tol)) return failed;
    ++newton_;
    ++stats.nnewton;
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = z1_[i] / scal[i], b = z2_[i] / scal[i], c = z3_[i] / scal[i];
      sum += a * a + b * b + c * c;
    }
    const double dyno = std::sqrt(sum / (3.0 * static_cast<double>(n)));
    if (!std::isfinite(dyno))
      return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages diverged", 0.5);
    // Convergence rate: give up early when the predicted error after nit iterations is too large.
    if (newton_ > 1 && newton_ < nit) {
      const double thq = dyno / dynold;
      theta_ = newton_ == 2 ? thq : std::sqrt(thq * thqold);
      thqold = thq;
      if (theta_ < 0.99) {
        faccon_ = theta_ / (1.0 - theta_);
        const double dyth = faccon_ * dyno * std::pow(theta_, nit - 1 - newton_) / scale_.newton_tolerance();
        if (dyth >= 1.0) {
          ++stats.nnewton_fail;
          const double qnewt = std::max(1e-4, std::min(20.0, dyth));
          const double hhfac = 0.8 * std::pow(qnewt, -1.0 / (4.0 + nit - 1 - newton_));
          return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages converges too slowly",
                         hhfac);
        }
      } else {
        ++stats.nnewton_fail;
        return StepAttempt::failed(StepAttempt::Kind::convergence, "the Newton iteration of the Radau stages diverged", 0.5);
      }
    }
    dynold = std::max(dyno, uround);
    f1_ += z1_;
    f2_ += z2_;
    f3_ += z3_;
    z1_ = t11 * f1_ + t12 * f2_ + t13 * f3_;
    z2_ = t21 * f1_ + t22 * f2_ + t23 * f3_;
    z3_ = t31 * f1_ + f2_;
    // Never converged on a Krylov correction that stopped short of its tolerance.
    const bool inexact = krylov_ && krylov_->take_inexact();
    if (scale_.newton_converged(faccon_, dyno, newton_) && !inexact) break;
  }
  return std::nullopt;
}

// The error estimate, filtered through E1; after a rejected first step, once more with f at y + err.
double Radau5Stepper::error_estimate(double t, double h, const Eigen::VectorXd& y) {
  // E1^-1 (stage_) into fz_. With Krylov, to a hundredth of the error norm's unit, enough
  // for the controller's err^(1/4); a solve that fails, or stops short of that, rejects the step.
  const auto filtered = [&] {
    return !solve_real(stage_, fz_, krylov_ ? 0.01 : 0.0) && !(krylov_ && krylov_->take_inexact());
  };
  const double fail = std::numeric_limits<double>::infinity();
  const double hee1 = dd1 / h, hee2 = dd2 / h, hee3 = dd3 / h;
  work_ = hee1 * z1_ + hee2 * z2_ + hee3 * z3_;
  apply_mass(work_, work2_);  // M (hee . z)
  stage_ = work2_ + f0_;
  if (!filtered()) return fail;
  double err = std::max(scale_.norm(fz_), 1e-10);
  if (err >= 1.0 && (first_ || retry_)) {
    stage_ = y + fz_;
    Eval e = problem_.rhs(t, stage_, work_);
    if (e == Eval::ok) {
      stage_ = work_ + work2_;
      if (!filtered()) return fail;
      err = std::max(scale_.norm(fz_), 1e-10);
    }
  }
  return err;
}

void Radau5Stepper::accept() {
  // Collocation polynomial through the stages, for dense output and the next starting values.
  cont0_ = y_new_;
  work_ = (z1_ - z2_) / c1mc2;   // ak
  work2_ = z1_ / c1;
  work2_ = (work_ - work2_) / c2;  // acont3
  cont1_ = (z2_ - z3_) / c2m1;
  cont2_ = (work_ - cont1_) / c1m1;
  cont3_ = cont2_ - work2_;
  first_ = false;
  hold_ = h_;
  if (sensitivities_) sensitivities_->accept();
  if (have_f_new_) f0_.swap(f_new_);
  have_f0_ = have_f_new_;
  // Keep the Jacobian when Newton converged fast (RADAU5's THET rule); it no longer belongs to this point.
  have_jac_ = theta_ <= settings_.jacobian_reuse;
  jac_current_ = false;
  last_t_ = std::numeric_limits<double>::quiet_NaN();
}

StepAttempt Radau5Stepper::retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end) {
  // As RadauIIAStepper::retake: the Newton iteration's memory stays the accepted steps'.
  // Not on the matrix-free path, whose re-takes ended further from the solution than the
  // interpolant (reflected_oscillator keep at 1e-8: scd 6.77 against 7.58).
  if (krylov_) return StepAttempt::failed(StepAttempt::Kind::recoverable, "no re-take on the matrix-free path");
  const auto memory = std::tuple(faccon_, theta_, newton_);
  const StepAttempt a = radau_detail::retake_step(*this, t, h, y, y_end, [] {});
  std::tie(faccon_, theta_, newton_) = memory;
  return a;
}

void Radau5Stepper::interpolate(double theta, Eigen::VectorXd& out) const {
  const double s = theta - 1.0;  // measured from the end of the step, in units of h
  out = cont0_ + s * (cont1_ + (s - c2m1) * (cont2_ + (s - c1m1) * cont3_));
}

double Radau5Controller::quotient(double err) const {
  const int nit = stepper_.settings().max_newton;
  const double cfac = limits_.safety * (1 + 2 * nit);
  const double fac = std::min(limits_.safety, cfac / (stepper_.last_newton() + 2 * nit));
  return std::max(1.0 / limits_.fac_max, std::min(1.0 / limits_.fac_min, std::pow(err, 0.25) / fac));
}

double Radau5Controller::accepted(double h, double err) {
  double quot = quotient(err);
  if (h_acc_ != 0.0) {
    double facgus = (h_acc_ / h) * std::pow(err * err / err_acc_, 0.25) / limits_.safety;
    facgus = std::max(1.0 / limits_.fac_max, std::min(1.0 / limits_.fac_min, facgus));
    quot = std::max(quot, facgus);
  }
  h_acc_ = h;
  err_acc_ = std::max(1e-2, err);
  const double ratio = 1.0 / quot;
  const auto& s = stepper_.settings();
  if (stepper_.last_theta() <= s.jacobian_reuse && ratio >= s.keep_step_low && ratio <= s.keep_step_high)
    return 1.0;  // keep h, and with it the factorisation
  return ratio;
}

double Radau5Controller::rejected(double, double err) { return std::min(1.0, 1.0 / quotient(err)); }

}  // namespace daekit
