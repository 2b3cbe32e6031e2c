// Forward sensitivities in the Rosenbrock family: the step is the method applied to the
// augmented system y' = f, s' = (df/dy) s + df/dq with its exact Jacobian at the step's
// start, [[J, 0], [H, J]], H = d/dy((df/dy) s + df/dq). Block lower triangular, so s's
// stages take y's LU of M/(h gamma) - J and one term more:
//   (M/(h gamma) - J) ks_i = g(Y_i, S_i) + h d_i g_t + M sum_j C_ij ks_j / h + H ky_i,
// with Y_i, S_i the stage values and g = (df/dy) s + df/dq. H ky_i are the second
// derivatives a W-approximation would drop and with them the order (Rosenbrock methods
// need the exact Jacobian of what they integrate); a W-method that reuses an old J
// (max_jacobian_age > 1) may drop H on those steps, its order holding with any matrix.
// s_new, the error estimate and the continuous extension use y's weights.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/newton_krylov.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"
#include "daekit/kits/rosenbrock/tableau.hpp"

namespace daekit {

// What one Rosenbrock step hands the sensitivities: where it starts, y's stages and matrix.
struct RosenbrockStage {
  double t = 0.0, h = 0.0;
  const Eigen::VectorXd* y = nullptr;
  const std::array<Eigen::VectorXd, tableaus::max_rosenbrock_stages>* k = nullptr;  // y's stages
  IterationMatrix* matrix = nullptr;  // M/(h gamma) - J, factorised
  const MassMatrix* mass = nullptr;
  bool jacobian_current = true;  // J is from this step's start (else a W-method's older one)
  // linear_solver=krylov: the stages' operator instead of `matrix`, each column's solve
  // held to `krylov_tolerance` in that column's error norm.
  NewtonKrylov* krylov = nullptr;
  double krylov_tolerance = 0.0;
};

class RosenbrockSensitivities {
 public:
  RosenbrockSensitivities(ProblemView& problem, const SolveRequest& request, const tableaus::RosenbrockTableau& tableau);
  // Why this problem's sensitivities cannot be computed here ("" when they can).
  std::string refused() const;
  // s0, its algebraic part from the constraints; false (with why) when it cannot be had.
  bool start(double t0, const Eigen::VectorXd& y0, std::string* why) {
    stepped_ = hermite_ = false;
    return equations_.consistent_initial(t0, y0, s_n_, why);
  }
  // After the restart at an event at (t, y): s continues from s+, its algebraic part
  // made consistent; "" or why not.
  std::string restart_from(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s) {
    stepped_ = hermite_ = false;  // s and perhaps the equations changed: nothing of the last end is reused
    return equations_.restarted(t, y, s, s_n_);
  }
  // s's stages on y's: ok, or the model's failure or the Krylov method's. *error: their
  // estimate (0 unless they join the error test).
  StepAttempt step(const RosenbrockStage& stage, const ErrorNorm& norm, const Eigen::VectorXd& y_new, double* error);
  // The step [t_start, t_start + h] computed last is accepted.
  void accept(double t_start, double h);
  // s at t on the last accepted step (s0 before one).
  void interpolate(double t, Eigen::MatrixXd& out) const;

 private:
  ProblemView& problem_;
  const SolveRequest& request_;
  const tableaus::RosenbrockTableau& tab_;
  SensitivityEquations equations_;
  bool stepped_ = false;
  double t_start_ = 0.0, h_ = 0.0;
  Eigen::MatrixXd s_n_, s_old_, s_new_, g_, gt_, hk_, sum_, err_;
  std::array<Eigen::MatrixXd, tableaus::max_rosenbrock_stages> ks_;
  std::array<Eigen::MatrixXd, 3> dense_;
  Eigen::VectorXd u_, column_, work_, column_weights_;
  // Stage i's column c from column_ into work_: the LU's back-solve or a Krylov solve.
  StepAttempt solve_column(const RosenbrockStage& stage, const ErrorNorm& norm, Eigen::Index c);
  Eigen::VectorXd magnitude_old_, magnitude_new_;  // pbar s at the step's ends: the error's weights, as CVODES
  // Cubic Hermite output for a method without a continuous extension (y's is the same).
  bool hermite_slopes(double t_end);
  Eigen::VectorXd y_end_, end_y_;  // the attempted step's end; the accepted end of end_rhs_
  const MassMatrix* mass_ = nullptr;
  Eigen::MatrixXd slope_start_, slope_old_, slope_new_, end_rhs_;
  double end_t_ = 0.0;
  bool hermite_ = false;          // the last accepted step has its slopes (and end_rhs_)
  bool started_at_end_ = false;   // this step's first stage took end_rhs_
};

}  // namespace daekit
