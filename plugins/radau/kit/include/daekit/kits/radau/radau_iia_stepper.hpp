// Radau IIA with 3, 5 or 7 stages (orders 5, 9, 13) and the order chosen during the
// integration, after Hairer & Wanner's RADAU (Stiff differential equations solved by
// Radau methods, 1999): the same structure as radau5 (the stage system split by the
// real block form of A^-1 into one real and (s-1)/2 complex n x n systems; simplified
// Newton with rate monitoring; starting values from the last step's collocation
// polynomial; the embedded error estimate of order s filtered by (gamma/h M - J)^-1;
// Gustafsson's predictive controller), with the tableaus as data (tableau.hpp).
//
// The order moves up by two stages when Newton contracts fast with a fresh Jacobian
// (rate <= `raise_rate`) and the step size has settled (ratio in [`steady_low`,
// `steady_high`]): the higher order then buys larger steps for little more linear
// algebra. It moves down when Newton's recent rates are slow (>= `lower_rate`) or it
// fails, at once after an unexpected rejection (docs/solvers/radau.md).
#pragma once

#include <Eigen/Dense>
#include <array>
#include <complex>
#include <limits>
#include <optional>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/controller.hpp"
#include "daekit/numerics/complex_iteration_matrix.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/kits/radau/error_scale.hpp"
#include "daekit/kits/radau/radau_iia_sensitivities.hpp"
#include "daekit/kits/radau/tableau.hpp"
#include "daekit/kits/radau/retake.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

struct RadauIIASettings {
  int min_stages = 3, max_stages = 7, start_stages = 3;
  int max_newton = 7;             // for 3 stages; 2.5 more per extra stage (RADAU's rule)
  // Keep J after a step whose Newton rate was below this. RADAU uses 1e-3; 1e-2 needed a
  // third of the Jacobians and gave the same scd on Fekete at 1e-8 and 1e-12 (0.27 s
  // against 0.43 s at 1e-8), chemakzo, Robertson and the Oregonator.
  double jacobian_reuse = 1e-2;
  double keep_step_low = 1.0, keep_step_high = 1.2;  // keep h (and the LUs) in this band
  double safety = 0.9, fac_min = 0.2, fac_max = 8.0;
  // The order rises after a step whose Newton rate is below raise_rate (RADAU's VITU)
  // or, with a Jacobian evaluated at the step's start, below raise_rate_fresh. RADAU pairs
  // VITU with a Jacobian refreshed above a rate of 0.001; keeping J up to 0.01-0.03 (fewer
  // Jacobians) leaves rates that rarely get below 0.002: Fekete N = 20 at 1e-10 stayed at
  // order 5 (332 steps, RADAU: 108); with the fresh-J bound it takes 119. Rates compared
  // with 0.06 whatever J's age, or fresh ones with 0.02, raised the order into tba's
  // non-smooth stretch near t = 150 and crawled there at rtol 1.000001e-6; the fresh-J
  // bound alone never raised on plei, whose J is never renewed (1254 steps at 1e-10
  // against 132). It falls on a remembered rate above lower_rate (RADAU's VITD, THETAT).
  double raise_rate = 0.002, raise_rate_fresh = 0.01, lower_rate = 0.8;
  double steady_low = 0.8, steady_high = 1.2;        // RADAU's HHOD, HHOU
  int steps_before_raise = 10;  // after a change of order (RADAU: 10)

  // From this size on, the defaults are those Hairer advises for large full systems (keep h
  // for h_new/h in [0.99, 2], keep J more often): one real and up to three complex n x n LUs
  // then cost more than the extra steps they save. On Fekete (n = 160) this halves the
  // factorisations and the time at 1e-6 .. 1e-12; on beam (n = 80) it costs 20 % more.
  static constexpr long large_system = 50;
  static RadauIIASettings for_size(long n) {
    RadauIIASettings s;
    if (n >= large_system) {
      s.jacobian_reuse = 0.03;
      s.keep_step_low = 0.99;
      s.keep_step_high = 2.0;
    }
    return s;
  }
};

class RadauIIAStepper {
 public:
  RadauIIAStepper(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass, IterationMatrix& matrix,
                  RadauIIASettings settings = {});

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
  std::string restart_sensitivities(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    return sensitivities_ ? sensitivities_->restart_from(t, y, s) : "";
  }
  // With sensitivities asked for: s(t) on the last accepted step (s0 before one).
  void interpolate_sensitivities(double t, Eigen::MatrixXd& out) const { sensitivities_->interpolate(t, out); }
  const Eigen::VectorXd& f_start() const { return f0_; }

  StepAttempt attempt(double t, double h, const Eigen::VectorXd& y);
  const Eigen::VectorXd& y_new() const { return y_new_; }
  void accept();
  void interpolate(double theta, Eigen::VectorXd& out) const;
  // The accepted step again from its start (t, y) with step h, to an event inside it
  // (driver.hpp): f there anew, the Jacobian as kept (any serves the simplified Newton
  // iteration), the stages started from the accepted step's collocation polynomial, which
  // stays the dense output. The method restarts after it.
  StepAttempt retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end);
  int order() const { return 2 * stages_ - 1; }
  int dense_degree() const { return cont_tab_ ? cont_tab_->stages : stages_; }  // the last step's collocation polynomial
  int stages() const { return stages_; }
  int error_stages() const { return stages_used_; }  // stages of the last attempt (its error's order)

  int last_newton() const { return newton_; }
  int max_newton() const { return nit_; }
  double last_theta() const { return theta_; }
  const RadauIIASettings& settings() const { return settings_; }

 private:
  Eval evaluate_f0(double t, const Eigen::VectorXd& y);
  std::optional<StepAttempt> solve_sensitivities(double t, double h, const Eigen::VectorXd& y, double* error);
  void use_stages(int s);
  void remember_rate();
  bool factorise(double h);
  StepAttempt model_failure(Eval e);
  std::optional<StepAttempt> prepare_matrices(double t, double h, const Eigen::VectorXd& y);
  void start_stages(double h);
  std::optional<StepAttempt> solve_stages(double t, double h, const Eigen::VectorXd& y);
  double error_estimate(double t, double h, const Eigen::VectorXd& y);
  void to_stages();      // Z = (T x I) W
  void to_transformed(); // W = (T^-1 x I) Z

  ProblemView& problem_;
  const SolveRequest& request_;
  const MassMatrix& mass_;
  IterationMatrix& matrix_;
  RadauIIASettings settings_;
  const RadauTableau* tab_ = nullptr;
  int stages_ = 3, nit_ = 7;
  RadauErrorScale scale_;  // tolerances transformed for the present order, index-scaled weights

  bool have_f0_ = false, have_f_new_ = false, have_jac_ = false, jac_current_ = false, first_ = true, retry_ = false;
  bool newton_failed_ = false;
  bool lower_for_retry_ = false;  // the last attempt failed unexpectedly
  double rate_memory_ = 0.0;      // Newton's recent rates, each halved per step (RADAU's THETAT)
  double factored_h_ = 0.0, last_t_ = std::numeric_limits<double>::quiet_NaN(), h_ = 0.0, hold_ = 0.0;
  double faccon_ = 1.0, theta_ = 1.0;
  int newton_ = 0, steps_at_order_ = 0, stages_used_ = 3;

  // One per complex eigenvalue pair: pairs_ of them in use, prepared_ set up (on first use,
  // so that a run at 3 stages holds one n x n complex matrix, not three).
  std::array<ComplexIterationMatrix, 3> complex_;
  std::size_t pairs_ = 0, prepared_ = 0;
  Eigen::VectorXcd rhs_c_, sol_c_;
  std::vector<Eigen::VectorXd> z_, w_, fz_, mw_;  // stages, transformed stages, f at the stages, M w
  Eigen::VectorXd f0_, f_new_, y_new_, y_start_, work_, work2_, stage_, err_;

  // The last accepted step's collocation polynomial (its own stage count).
  const RadauTableau* cont_tab_ = nullptr;
  std::vector<Eigen::VectorXd> cont_z_;
  Eigen::VectorXd cont_y0_;
  std::vector<double> basis_;

  std::optional<RadauIIASensitivities> sensitivities_;  // with sensitivities asked for
  std::string sensitivities_failed_;  // why s0 could not be had: the first step says so
  double step_t_ = 0.0;               // where the step being attempted starts
  const Eigen::VectorXd* retake_from_ = nullptr;  // the accepted step's start, while retake() runs
  template <class Stepper, class BeforeAttempt>
  friend StepAttempt radau_detail::retake_step(Stepper&, double, double, const Eigen::VectorXd&, Eigen::VectorXd&,
                                               BeforeAttempt);
};

// Radau5Controller's rule with the exponent of the present order: err^(1/(s+1)).
class RadauIIAController : public StepController {
 public:
  explicit RadauIIAController(const RadauIIAStepper& stepper)
      : StepController(4.0, {stepper.settings().safety, stepper.settings().fac_min, stepper.settings().fac_max}),
        stepper_(stepper) {}
  void reset() override { h_acc_ = 0.0; }
  double accepted(double h, double err) override;
  double rejected(double h, double err) override;

 private:
  double quotient(double err) const;
  const RadauIIAStepper& stepper_;
  double h_acc_ = 0.0, err_acc_ = 0.0;
  int stages_acc_ = 0;
};

}  // namespace daekit
