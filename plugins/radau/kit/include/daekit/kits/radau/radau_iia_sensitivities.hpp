// Forward sensitivities in radauiia, whatever its stage count (3, 5, 7): the collocation
// equations of s on y's converged stages,
//   M ZS_i = h sum_j a_ij (J(Y_j)(s_n + ZS_j) + f_q(Y_j)),
// transformed by the tableau's T as y's and solved with y's real and complex LUs by the
// same simplified Newton iteration (linear in s: it converges at the rate the kept
// Jacobian allows). s's collocation polynomial of the last step, of that step's order,
// gives the dense output and the next step's starting values; the embedded estimate,
// filtered through (gamma/h) M - J, joins the error test when asked, with CVODES'
// weights (y's tolerances applied to pbar s). radau5_sensitivities.hpp is the same for
// RADAU5's fixed three stages, in its own coefficients.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/complex_iteration_matrix.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"
#include "daekit/kits/radau/error_scale.hpp"
#include "daekit/kits/radau/tableau.hpp"

namespace daekit {

// What one step of radauiia hands the sensitivities: y's converged stages and matrices.
struct RadauIIAStage {
  double t = 0.0, h = 0.0;
  const RadauTableau* tab = nullptr;
  const Eigen::VectorXd* y = nullptr;                // at the step's start
  const std::vector<Eigen::VectorXd>* z = nullptr;   // y's stage increments Y_i - y
  IterationMatrix* real = nullptr;                   // (gamma/h) M - J, factorised
  std::array<ComplexIterationMatrix, 3>* complex = nullptr;  // one per pair, factorised
  const MassMatrix* mass = nullptr;
  const RadauErrorScale* scale = nullptr;  // y's, its tolerances transformed for this order
  int max_newton = 7;
};

class RadauIIASensitivities {
 public:
  RadauIIASensitivities(ProblemView& problem, const SolveRequest& request);
  std::string refused() const { return equations_.refused_for_ode_family("radauiia"); }
  bool start(double t0, const Eigen::VectorXd& y0, std::string* why) {
    first_ = true;
    return equations_.consistent_initial(t0, y0, s_n_, why);
  }
  std::string restart_from(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    first_ = true;
    return equations_.restarted(t, y, s, s_n_);
  }
  // The stages of s on y's converged stages: nothing, or why the step fails. *error: the
  // sensitivities' estimate (0 unless they join the error test).
  std::optional<StepAttempt> solve_stages(const RadauIIAStage& step, double* error);
  void accept(double t_start);
  // s at t on the last accepted step (s0 before one).
  void interpolate(double t, Eigen::MatrixXd& out) const;

 private:
  void use_tableau(const RadauTableau& tab);
  void start_stages(const RadauIIAStage& step);
  void update_column_scales(const RadauIIAStage& step);
  double error_estimate(const RadauIIAStage& step);
  void to_stages();

  ProblemView& problem_;
  const SolveRequest& request_;
  SensitivityEquations equations_;
  const RadauTableau* tab_ = nullptr;
  bool first_ = true;
  double h_ = 0.0;
  Eigen::MatrixXd s_n_, s_new_, s_stage_, f0_;
  std::vector<Eigen::MatrixXd> zs_, ws_, fs_;  // per stage n x ns: increments, transformed, f at the stages
  Eigen::VectorXd stage_, column_, work_, mw_a_, mw_b_;
  Eigen::VectorXcd rhs_c_, sol_c_;
  // Column k's scales: RADAU's at pbar_k s_k(t_n) (CVODES' weights), n x ns.
  std::optional<RadauErrorScale> column_scale_;
  int scaled_for_ = 0;  // the stage count column_scale_'s tolerances are transformed for
  Eigen::MatrixXd column_scal_;
  // The last accepted step's collocation polynomial (its own stage count).
  const RadauTableau* cont_tab_ = nullptr;
  std::vector<Eigen::MatrixXd> cont_z_;
  Eigen::MatrixXd cont_s0_;
  double cont_t0_ = 0.0, cont_h_ = 0.0;
  std::vector<double> basis_;
};

}  // namespace daekit
