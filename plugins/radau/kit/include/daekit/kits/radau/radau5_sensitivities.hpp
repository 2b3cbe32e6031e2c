// Forward sensitivities in radau5, staggered as in the BDF family: once y's stages have
// converged, the collocation equations of the sensitivity system,
//     M ZS_i = h sum_j a_ij (J(Y_j) (s_n + ZS_j) + f_q(Y_j)),   i = 1, 2, 3,
// linear in the stage increments ZS, are solved with y's own transformed iteration
// (the real LU of (u1/h) M - J and the complex one of ((alph + i beta)/h) M - J, J from the
// step's start) by the same simplified Newton iteration and convergence test. s_{n+1} =
// s_n + ZS_3, the collocation polynomial of s gives its dense output and the next step's
// starting values, and with the error control on, RADAU5's filtered estimate of s joins
// y's. The Jacobian products at the stages are exact where the problem has a Jacobian.
#pragma once

#include <Eigen/Dense>
#include <optional>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/complex_iteration_matrix.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"
#include "daekit/kits/radau/error_scale.hpp"

namespace daekit {

// What one step of radau5 hands the sensitivities: y's converged stages and its matrices.
struct Radau5Stage {
  double t = 0.0, h = 0.0;
  const Eigen::VectorXd* y = nullptr;       // at the step's start
  const Eigen::VectorXd* z[3] = {};         // y's stage increments Y_i - y
  IterationMatrix* real = nullptr;          // (u1/h) M - J, factorised
  ComplexIterationMatrix* complex = nullptr;  // ((alph + i beta)/h) M - J, factorised
  const MassMatrix* mass = nullptr;
  const RadauErrorScale* scale = nullptr;
  int max_newton = 7;
};

class Radau5Sensitivities {
 public:
  Radau5Sensitivities(ProblemView& problem, const SolveRequest& request);
  // Why this problem's sensitivities cannot be computed here ("" when they can).
  std::string refused() const;
  // s0, its algebraic part from the constraints; false (with why) when it cannot be had.
  bool start(double t0, const Eigen::VectorXd& y0, std::string* why) {
    first_ = true;
    return equations_.consistent_initial(t0, y0, s_n_, why);
  }
  // After the restart at an event at (t, y): s continues from s+, its algebraic part
  // made consistent; "" or why not.
  std::string restart_from(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    first_ = true;
    return equations_.restarted(t, y, s, s_n_);
  }
  // The stages of s on y's converged stages: nothing, or why the step fails. *error: the
  // sensitivities' estimate (0 unless they join the error test).
  std::optional<StepAttempt> solve_stages(const Radau5Stage& step, double* error);
  void accept();
  // s at theta of the last accepted step (s0 before one).
  void interpolate(double theta, Eigen::MatrixXd& out) const;

 private:
  void start_stages(double h);
  double error_estimate(const Radau5Stage& step);
  Eval stage_rhs(const Radau5Stage& step, int stage, Eigen::MatrixXd& out);

  ProblemView& problem_;
  const SolveRequest& request_;
  SensitivityEquations equations_;
  bool first_ = true;
  double h_ = 0.0, hold_ = 0.0;
  Eigen::MatrixXd s_n_, s_new_, s_stage_;
  Eigen::MatrixXd zs_[3], fs_[3], g_[3], mf_[3];  // n x ns: increments, transformed, stage f, M fs
  Eigen::MatrixXd cont_[4];                       // the collocation polynomial of s
  Eigen::VectorXd stage_, column_, work_;
  // Column k's scales: RADAU5's (atol' + rtol' |.|, index-scaled) at pbar_k s_k(t_n), as
  // CVODES weighs s (y's tolerances applied to pbar s, not to y); in column_scal_ (n x ns).
  std::optional<RadauErrorScale> column_scale_;
  Eigen::MatrixXd column_scal_;
  void update_column_scales(const Radau5Stage& step);
  Eigen::VectorXcd rhs_c_, sol_c_;
};

}  // namespace daekit
