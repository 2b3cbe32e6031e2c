// One generic Rosenbrock step for any tableau (kits/rosenbrock/tableau.hpp),
// on M y' = f(t, y) with a constant (possibly singular) mass matrix. Every method
// of the family is this class plus its coefficients.
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/arnoldi_jacobian.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/jacobian_product.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/newton_krylov.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/kits/rosenbrock/sensitivities.hpp"
#include "daekit/kits/rosenbrock/tableau.hpp"

namespace daekit {

class RosenbrockStepper {
 public:
  // max_jacobian_age > 1 lets a W-method keep its Jacobian for that many steps.
  RosenbrockStepper(const tableaus::RosenbrockTableau& tableau, ProblemView& problem, const MassMatrix& mass,
                    IterationMatrix& matrix, const ErrorNorm& norm, int max_jacobian_age = 1);

  // f(t0, y0), needed once for the automatic initial step.
  Eval start(double t0, const Eigen::VectorXd& y0);
  // The driver moved the accepted end onto a sign constraint: f there is evaluated anew.
  void projected(const Eigen::VectorXd&) { have_f0_ = false; }
  // After an event changed the state: nothing of the last step carries over (the
  // sensitivities continue from s+: restart_sensitivities).
  Eval restart(double t, const Eigen::VectorXd& y) {
    have_jac_ = false;
    jacobian_age_ = 0;
    return evaluate_f0(t, y);
  }
  const Eigen::VectorXd& f_start() const { return f0_; }

  StepAttempt attempt(double t, double h, const Eigen::VectorXd& y);
  const Eigen::VectorXd& y_new() const { return y_new_; }
  void accept();
  // On the last accepted step. Methods without a continuous extension of their own use
  // cubic Hermite interpolation on differential components (with f at the step's end, which
  // every accepted step evaluates for the next one) and linear interpolation on algebraic ones.
  void interpolate(double theta, Eigen::VectorXd& out);
  // The accepted step again from its start (t, y) with step h, to an event inside it
  // (driver.hpp): J and f_t as that step had them (from its start), f there anew; what the
  // dense output reads is kept. With a direct LU only (the matrix-free paths keep the
  // interpolant's state at events: a failed attempt).
  StepAttempt retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end);
  int order() const { return tab_.order; }
  // Linearly implicit: a DAE's algebraic equations hold only to the local error (driver.hpp).
  bool leaves_algebraic_defect() const { return !mass_.is_identity(); }
  // (1 - theta) y_old + theta (y_new + (1 - theta) H(theta)), H of degree dense_rows - 1; else cubic Hermite.
  int dense_degree() const { return tab_.dense_rows == 0 ? 3 : tab_.dense_rows + 1; }
  // Stages solved by a Krylov method (linear_solver=krylov; the stepper does not own it),
  // each to `tolerance` in the error norm: J only through products at the step's start.
  void solve_stages_by_krylov(NewtonKrylov* krylov, double tolerance) {
    krylov_ = krylov;
    krylov_tolerance_ = tolerance;
  }
  // Stages with J replaced by its Arnoldi projection onto K_m(J, f(t_n, y_n))
  // (linear_solver=arnoldi, what a Rosenbrock-Krylov method is built for: its tableau's
  // krylov_method), grown until the first stage meets `tolerance` in the error norm
  // (numerics/arnoldi_jacobian.hpp). For y' = f only (M the identity). Neither is owned.
  void project_jacobian(ArnoldiJacobian* arnoldi, JacobianProduct* product, double tolerance) {
    arnoldi_ = arnoldi;
    product_ = product;
    krylov_tolerance_ = tolerance;
  }
  // Sensitivities integrated beside y on the same steps (the stepper does not own them).
  void integrate_sensitivities(RosenbrockSensitivities* sensitivities) { sensitivities_ = sensitivities; }
  // After the restart at an event (restart() done): s continues from s+; "" or why not.
  std::string restart_sensitivities(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    return sensitivities_ ? sensitivities_->restart_from(t, y, s) : "";
  }
  // The last attempt's stages k_i and f_t (zero for an autonomous problem), which the
  // discrete adjoint differentiates (kits/rosenbrock/adjoint.hpp).
  const Eigen::VectorXd& stage(int i) const { return k_[static_cast<std::size_t>(i)]; }
  const Eigen::VectorXd& f_t() const { return ft_; }
  // The controller's exponent order: that of the error estimate plus one.
  int error_order() const { return std::min(tab_.order, tab_.embedded_order) + 1; }

 private:
  // f at the (re)start, which the first step and the automatic step size read.
  Eval evaluate_f0(double t, const Eigen::VectorXd& y);
  Eval time_derivative(double t, const Eigen::VectorXd& y);
  StepAttempt failure(Eval e) const;
  // The Jacobian's part of an attempt: J (or the preconditioner) at (t, y) when due, and W
  // for this h factorised (or the preconditioner set up for it).
  StepAttempt prepare_matrix(double t, double h, const Eigen::VectorXd& y);
  // The Arnoldi projection's share of it, with weights_ already at y.
  StepAttempt prepare_projection(double t, double h, const Eigen::VectorXd& y);
  // Stage i's k from rhs_: a back-solve, a Krylov solve of (M - h gamma J) k = h gamma rhs,
  // or the projected system's solve.
  StepAttempt solve_stage(int i, double t, double h, const Eigen::VectorXd& y);
  // A Krylov stage's tolerance: krylov_tolerance_ per unit of the step accuracy would
  // allow, so that a run whose steps the Krylov method keeps short does not add up its
  // stages' errors over thousands of steps (pollu, rtol 1e-4, unpreconditioned GMRES:
  // 181 tolerances off at the end with one tolerance for every step).
  double stage_tolerance() const;
  void hermite(double theta, Eigen::VectorXd& out);
  // y' from f where M is diagonal (identity included); false for a non-diagonal M.
  bool derivative(const Eigen::VectorXd& f, Eigen::VectorXd& yp) const;

  const tableaus::RosenbrockTableau& tab_;
  ProblemView& problem_;
  const MassMatrix& mass_;
  IterationMatrix& matrix_;
  const ErrorNorm& norm_;

  bool have_f0_ = false, have_jac_ = false;  // still valid after a rejected step
  int max_jacobian_age_ = 1, jacobian_age_ = 0;
  double t_last_ = 0.0, h_last_ = 0.0;
  bool have_f_new_ = false;  // f(t_new, y_new): the next step's first stage, and Hermite's end slope
  Eigen::VectorXd f0_, ft_, y_old_, y_new_, u_, fu_, rhs_, sum_, msum_, err_;
  Eigen::VectorXd f_old_, f_new_, yp_old_, yp_new_;  // for Hermite interpolation
  Eigen::VectorXd kept_y_old_, kept_y_new_, kept_f_new_;  // the dense output's, while retake() runs
  std::array<Eigen::VectorXd, tableaus::max_rosenbrock_stages> k_;
  std::array<Eigen::VectorXd, 3> dense_;
  RosenbrockSensitivities* sensitivities_ = nullptr;
  NewtonKrylov* krylov_ = nullptr;
  ArnoldiJacobian* arnoldi_ = nullptr;
  JacobianProduct* product_ = nullptr;  // J v for the Arnoldi projection
  double krylov_tolerance_ = 0.0;
  double last_error_ = 1.0, accepted_error_ = 1.0;  // the last attempt's error estimate, the last accepted one's
  Eigen::VectorXd weights_;  // the error weights at y: the LU's scaling, the matrix-free paths' norms
  std::string sensitivities_failed_;  // why s0 could not be had: the first step says so
};

}  // namespace daekit
