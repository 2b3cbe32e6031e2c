// Variable-order (1-5), variable-step BDF in fixed-leading-coefficient form, the
// formulation of DASSL and IDA (Brenan, Campbell & Petzold, "Numerical Solution of
// Initial-Value Problems in DAEs", ch. 5): the history is kept as modified divided
// differences phi_j, every step predicts y and y' from the interpolating polynomial
// and solves the corrector
//     F(t, y, y'_pred + cj (y - y_pred)) = 0,   cj = -alpha_s / h,  alpha_s = -sum_{j<=k} 1/j,
// by a modified Newton iteration whose matrix dF/dy + cj dF/dy' is kept while it
// converges. The local error at orders k-1, k, k+1 chooses the next order and step.
//
// With `ndf` the corrector's leading coefficient becomes (1 - kappa_k) alpha_s: the
// numerical differentiation formulas of Klopfenstein and Shampine (MATLAB's ode15s),
// more stable at the same error constant gain, with the kappas of Shampine & Reichelt.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/implicit_system.hpp"
#include "daekit/kits/bdf/sensitivities.hpp"

namespace daekit {

struct BdfSettings {
  int max_order = 5;
  bool ndf = false;
  int max_newton = 4;         // DASSL's MAXIT
  // Converged when rate / (1 - rate) * |delta| <= newton_tol; 0: from the tolerance (stepper.cpp).
  double newton_tol = 0.0;
  double fixed_step = 0.0;    // > 0: constant steps of this size without error control (order tests)
  bool restart_at_tstops = true;  // order 1 from each breakpoint on, as the test set's drivers do
  KrylovOptions linear;           // linear_solver (auto, dense, sparse or krylov) and Krylov's options
};

// linear_solver's direct choices in this family (auto: sparse LUs where a pattern is declared).
inline const std::vector<std::string>& bdf_direct_solvers() {
  static const std::vector<std::string> choices = {"auto", "dense", "sparse"};
  return choices;
}

class BdfStepper {
 public:
  static constexpr int kMaxOrder = 5;

  BdfStepper(ImplicitSystem& system, const SolveRequest& request, const ErrorNorm& norm, BdfSettings settings);

  // History from consistent y(t0), y'(t0).
  void start(double t0, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0);
  // DASSL's first step: 0.001 of the span, or less so that |h y'| <= 1/2 in the error norm.
  double initial_step() const;

  // The driver's interface (numerics/driver.hpp).
  StepAttempt attempt(double t, double h, const Eigen::VectorXd& y);
  const Eigen::VectorXd& y_new() const { return y_; }
  void accept();
  void interpolate(double theta, Eigen::VectorXd& out) const;
  int order() const { return order_; }
  int dense_degree() const { return order_old_ > 0 ? order_old_ : 1; }  // the last step's interpolant
  // The last accepted step ended on a breakpoint and the next starts afresh at order 1
  // (read by the driver: the first step then comes from initial_step(), not the cut step).
  bool restarted_at_stop() const { return restarted_at_stop_; }
  // The driver moved the accepted end onto a sign constraint (by less than its
  // tolerance): the newest difference carries the shift, the order stays.
  void projected(const Eigen::VectorXd& y);

  // Sensitivities integrated beside y on the same steps (the stepper does not own them).
  void integrate_sensitivities(BdfSensitivities* sensitivities) { sensitivities_ = sensitivities; }
  // After the restart at an event (start() done): s continues from s+; "" or why not.
  std::string restart_sensitivities(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    return sensitivities_ ? sensitivities_->restart_from(system_, t, y, s) : "";
  }
  // s at t on the last accepted step.
  void interpolate_sensitivities(double t, Eigen::MatrixXd& out) const {
    sensitivities_->interpolate(t - t_, psi_.data(), order_old_, out);
  }

  // Step-size factors chosen together with the order (read by BdfController).
  double accepted_factor() const { return accepted_factor_; }
  double rejected_factor() const { return rejected_factor_; }

 private:
  using Coefficients = std::array<double, kMaxOrder + 3>;  // 1-based, as in the formulas

  void restart_history(double h, const Eigen::VectorXd& y);
  void compute_coefficients(double h);
  void predict(int k);
  void unscale_history();
  StepAttempt newton(double t_new);
  StepAttempt error_test(double h);
  void choose_after_success(double h);
  double lte_factor(int k) const;  // NDF's error constant relative to BDF's at order k
  double norm(const Eigen::VectorXd& v, double h) const { return norm_.rms(v, *y_n_, *y_n_, h); }
  // Newton's convergence test: every component, also those the error test leaves out
  // (as IDA's suppressalg does), with the index scaling of the error test: an error
  // d lambda in an index-2 multiplier moves the solution by about h d lambda. (Unscaled,
  // the iteration cannot converge at small h: the matrix's condition grows like h^-2,
  // and Fekete failed at t0 from 1e-9 on, as plain IDA does.)
  double newton_norm(const Eigen::VectorXd& v) const { return newton_norm_.rms(v, *y_n_, *y_n_, h_attempt_); }

  ImplicitSystem& system_;
  const SolveRequest& request_;
  const ErrorNorm& norm_;
  ErrorNorm newton_norm_;
  BdfSettings settings_;
  Eigen::Index n_;
  int max_order_;

  // Committed history after the last accepted step: phi_j, j = 1 .. max_order + 1, in
  // column j - 1; during an attempt columns 1 .. k + 1 hold phi*_j = beta_j phi_j.
  Eigen::MatrixXd phi_;
  auto phi(int j) { return phi_.col(j - 1); }
  auto phi(int j) const { return phi_.col(j - 1); }
  int scaled_order_ = 0;       // k of the attempt whose phi* the history holds (0: none)
  Coefficients psi_{};         // psi_j = t_n - t_{n-j}
  double t_ = 0.0;             // time of the last accepted point
  // y at t_, the error weights' base: the driver's state, handed to attempt() (the same
  // values as the step's y_new() it took over, or the state a restart began from).
  const Eigen::VectorXd* y_n_ = nullptr;
  double h_old_ = 0.0;         // last accepted step
  int order_ = 1;              // order for the next attempt
  int order_old_ = 0;          // order of the last accepted step (0: none since the (re)start)
  int constant_steps_ = 0;     // DASSL's NS: steps taken with the present h and order
  bool initial_phase_ = true;  // raise the order and double h until something fails
  bool fresh_start_ = true;    // no step accepted since the (re)start
  bool restarted_at_stop_ = false;  // the last accepted step ended on a breakpoint and restarted
  std::size_t next_tstop_ = 0;
  bool slope_in_yp_ = false;  // yp_ holds y' of a (re)start, for restart_history and initial_step

  // The attempt in progress.
  Coefficients alpha_{}, beta_{}, sigma_{}, gamma_{}, psi_trial_{};
  int constant_steps_trial_ = 0;
  double cj_ = 0.0, error_constant_ = 0.0;
  Eigen::VectorXd y_, yp_, e_, delta_, r_;  // y and y' from the prediction on; e = y - y_pred
  Eigen::VectorXd newton_weights_;  // the Newton norm's weights at y_n_, for Krylov's residual
  double y_pred_norm_ = 0.0;
  double h_attempt_ = 0.0, t_new_ = 0.0;

  // Newton state carried across steps (DASSL's S and JCALC).
  double rate_factor_ = 100.0;
  bool matrix_valid_ = false;     // a factorisation exists
  bool need_new_jacobian_ = true;
  bool jacobian_fresh_ = false;   // the Jacobian was evaluated during this attempt

  // Error estimates of the attempt, for the order selection.
  double est_ = 0.0, terk_ = 0.0, terkm1_ = 0.0, erkm1_ = 0.0;
  double sensitivity_factor_ = 1.0;  // how far s's error exceeds y's (1 without their error control)
  int order_new_ = 1;  // k-1 when the estimates ask for a lower order
  int error_failures_ = 0;

  double accepted_factor_ = 1.0, rejected_factor_ = 0.25;
  BdfSensitivities* sensitivities_ = nullptr;
};

// Hands the driver the step-size factors the BDF stepper chose with its order.
class BdfController : public StepController {
 public:
  explicit BdfController(const BdfStepper& stepper) : StepController(1.0), stepper_(stepper) {}
  double accepted(double, double) override { return stepper_.accepted_factor(); }
  double rejected(double, double) override { return stepper_.rejected_factor(); }

 private:
  const BdfStepper& stepper_;
};

// The whole BDF/NDF solve: initialisation (core's consistency service), error norm,
// stepper and the shared driver.
SolveOutcome solve_bdf(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                       const BdfSettings& settings);

}  // namespace daekit
