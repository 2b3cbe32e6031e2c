// One step of the three-stage Radau IIA method (order 5) with the structure of
// Hairer & Wanner's RADAU5 (Solving ODEs II, Sec. IV.8): the stage system is
// transformed with the eigenvectors of A^-1 into one real and one complex n x n
// system (one real and one complex LU per factorisation); simplified Newton with
// convergence-rate monitoring; starting values from the last step's collocation
// polynomial; the embedded error estimate filtered by (M/(h gamma0) - J)^-1, with
// the extra correction after a rejected first step; dense output from the
// collocation polynomial; components of index 2 and 3 weighted by h and h^2. With
// linear_solver=krylov the two systems are solved by a Krylov method instead of LUs:
// J only through products at the step's start, the complex one as a real system of
// twice the size (numerics/newton_krylov.hpp), both with the real preconditioner.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <limits>
#include <optional>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/controller.hpp"
#include "daekit/numerics/complex_iteration_matrix.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/kits/radau/radau_krylov.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/kits/radau/error_scale.hpp"
#include "daekit/kits/radau/radau5_sensitivities.hpp"
#include "daekit/kits/radau/retake.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

struct Radau5Settings {
  int max_newton = 7;          // NIT
  double jacobian_reuse = 1e-3;  // THET: keep J after a step whose Newton rate was below this
  double keep_step_low = 1.0, keep_step_high = 1.2;  // QUOT1, QUOT2: keep h (and the LU) in this band
  double safety = 0.9;
  double fac_min = 0.2, fac_max = 8.0;  // step ratio limits
};

class Radau5Stepper {
 public:
  Radau5Stepper(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass, IterationMatrix& matrix,
                Radau5Settings settings = {});

  Eval start(double t0, const Eigen::VectorXd& y0);
  // The driver moved the accepted end onto a sign constraint: f there is evaluated anew.
  void projected(const Eigen::VectorXd&) { have_f0_ = false; }
  // After an event changed the state: nothing of the last step carries over (the
  // sensitivities continue from s+: restart_sensitivities).
  Eval restart(double t, const Eigen::VectorXd& y) {
    have_jac_ = false;
    first_ = true;
    return evaluate_f0(t, y);
  }
  const Eigen::VectorXd& f_start() const { return f0_; }

  StepAttempt attempt(double t, double h, const Eigen::VectorXd& y);
  const Eigen::VectorXd& y_new() const { return y_new_; }
  void accept();
  void interpolate(double theta, Eigen::VectorXd& out) const;
  // The accepted step again from its start (t, y) with step h, to an event inside it
  // (driver.hpp), as RadauIIAStepper::retake; the dense output stays the accepted step's.
  // With direct LUs only (on the matrix-free path a failed attempt: the interpolant's state).
  StepAttempt retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end);
  int order() const { return 5; }
  int dense_degree() const { return 3; }  // the collocation polynomial
  // After the restart at an event (restart() done): s continues from s+; "" or why not.
  std::string restart_sensitivities(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    return sensitivities_ ? sensitivities_->restart_from(t, y, s) : "";
  }
  // With sensitivities asked for: s(t) on the last accepted step (s0 before one).
  void interpolate_sensitivities(double t, Eigen::MatrixXd& out) const {
    sensitivities_->interpolate(first_ ? 1.0 : 1.0 + (t - t_end_) / hold_, out);
  }

  // For the controller: Newton iterations of the last step and its convergence rate.
  int last_newton() const { return newton_; }
  // E1 and E2 solved by a Krylov method (the stepper does not own it): each Newton
  // correction to the method's fraction of the Newton tolerance, in the error norm.
  void solve_stages_by_krylov(NewtonKrylov* krylov) { krylov_.emplace(*krylov, problem_); }
  double last_theta() const { return theta_; }
  const Radau5Settings& settings() const { return settings_; }

 private:
  // f at the (re)start, which the first step and the automatic step size read.
  Eval evaluate_f0(double t, const Eigen::VectorXd& y);
  bool factorise(double h);
  std::optional<StepAttempt> prepare_matrices(double t, double h, const Eigen::VectorXd& y);
  void start_stages(double h);
  std::optional<StepAttempt> solve_stages(double t, double h, const Eigen::VectorXd& y);
  double error_estimate(double t, double h, const Eigen::VectorXd& y);
  // E1 x = b and E2 (x_re + i x_im) = b_re + i b_im: the LUs, or Krylov to `tol` in the
  // error norm; a failure when the Krylov method made no progress or the model failed.
  std::optional<StepAttempt> solve_real(const Eigen::VectorXd& b, Eigen::VectorXd& x, double tol);
  std::optional<StepAttempt> solve_complex(double h, Eigen::VectorXd& re, Eigen::VectorXd& im, double tol);

  void apply_mass(const Eigen::VectorXd& x, Eigen::VectorXd& out) const { mass_.apply(x, out); }

  ProblemView& problem_;
  const SolveRequest& request_;
  const MassMatrix& mass_;
  IterationMatrix& matrix_;
  Radau5Settings settings_;
  RadauErrorScale scale_;  // RADAU5's transformed tolerances and index-scaled weights

  bool have_f0_ = false, have_f_new_ = false, have_jac_ = false, jac_current_ = false, first_ = true, retry_ = false;
  const Eigen::VectorXd* retake_from_ = nullptr;  // the accepted step's start, while retake() runs
  template <class Stepper, class BeforeAttempt>
  friend StepAttempt radau_detail::retake_step(Stepper&, double, double, const Eigen::VectorXd&, Eigen::VectorXd&,
                                               BeforeAttempt);
  double factored_h_ = 0.0, last_t_ = std::numeric_limits<double>::quiet_NaN(), h_ = 0.0, hold_ = 0.0;
  double faccon_ = 1.0, theta_ = 1.0, t_end_ = 0.0;
  int newton_ = 0;

  ComplexIterationMatrix complex_;  // E2 = ((alph + i beta)/h) M - J
  std::optional<RadauKrylov> krylov_;  // linear_solver=krylov
  Eigen::VectorXcd rhs_c_, sol_c_;
  Eigen::VectorXd f0_, f_new_, y_new_, z1_, z2_, z3_, f1_, f2_, f3_, work_, work2_, stage_, fz_;
  Eigen::VectorXd mf1_, mf2_, mf3_;
  Eigen::VectorXd cont0_, cont1_, cont2_, cont3_;
  std::optional<Radau5Sensitivities> sensitivities_;  // with sensitivities asked for
  std::string sensitivities_failed_;  // why s0 could not be had: the first step says so
};

// RADAU5's step-size rule: the safety factor falls with the Newton iterations the
// step needed, Gustafsson's prediction after accepted steps, and the step (and its
// factorisation) kept when the change would be small and the Jacobian is kept.
class Radau5Controller : public StepController {
 public:
  explicit Radau5Controller(const Radau5Stepper& stepper)
      : StepController(4.0, {stepper.settings().safety, stepper.settings().fac_min, stepper.settings().fac_max}),
        stepper_(stepper) {}
  void reset() override { h_acc_ = 0.0; }
  double accepted(double h, double err) override;
  double rejected(double h, double err) override;

 private:
  double quotient(double err) const;
  const Radau5Stepper& stepper_;
  double h_acc_ = 0.0, err_acc_ = 0.0;
};

}  // namespace daekit
