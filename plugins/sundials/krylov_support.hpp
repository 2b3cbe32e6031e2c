// linear_solver=krylov (spgmr, spfgmr, spbcgs) in cvode and ida: SUNDIALS' own iterative
// solvers inside CVODE's and IDA's Newton iterations, as their users run them (CVODE's and
// IDA's linear tolerance eplifac, their preconditioner-reuse rules), with what the rest of
// daekit offers: J v from the problem where it gives one, else the core's difference
// quotient (numerics/jacobian_product.hpp: SUNDIALS' own, one weighted unit along v,
// ended CVODE with Robertson's y1 100 % wrong at rtol 1e-6), and the core's preconditioners (Jacobi, ILUT on the pattern, the problem's own)
// behind CVODE's and IDA's preconditioner callbacks. docs/krylov.md compares the two paths.
#pragma once

#include <Eigen/Core>
#include <daekit/numerics/jacobian_product.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/numerics/newton_krylov.hpp>
#include <daekit/numerics/preconditioner.hpp>
#include <string>

#include "sundials_support.hpp"

namespace daekit::plugins::sundials {

class KrylovSupport {
 public:
  // Why these options cannot serve this request ("" when they can). Forward sensitivities
  // with Krylov are CVODES' and IDAS' own (the staggered corrector solves s's systems with
  // the same iterative solver and preconditioner); adjoints are not there yet.
  static std::string refusal(const KrylovOptions& options, const SolveRequest& request) {
    if (options.krylov() && request.wants_adjoint())
      return "linear_solver=krylov with adjoints: not yet; use a direct linear solver";
    return "";
  }

  // mass: the problem's constant M (the identity for CVODE), or nullptr for IDA on a
  // residual-form problem. False with `why` when the preconditioner cannot be had.
  bool setup(ProblemView& problem, const SolveRequest& request, const KrylovOptions& options, const MassMatrix* mass,
             std::string* why);
  enum class Integrator { cvode, ida };
  // The SPGMR / SPFGMR / SPBCGS object on vectors like y (no matrix: pass nullptr to the
  // integrator's SetLinearSolver), preconditioned on the right where the integrator allows
  // it (CVODE; IDA takes left only). For CVODE a solve that only reduced its residual is
  // a failure, as IDA reads it: CVODE takes such a solve in its first Newton iteration,
  // and where the correction came out small its convergence test accepted a step far from
  // the solution (pollu, unpreconditioned SPGMR, rtol 1e-6: 1049 tolerances off at the
  // end, with success).
  void make_solver(LinearAlgebra& la, N_Vector y, Integrator integrator, SUNContext ctx) const;
  bool preconditioned() const { return preconditioner_.kind() != PreconditionerKind::none; }
  double eplifac() const { return options_.settings.newton_fraction; }

  // CVODE's system I - gamma J.
  int setup_ode(double t, N_Vector y, N_Vector fy, bool jacobian_ok, int* jacobian_current, double gamma);
  int solve_ode(N_Vector r, N_Vector z, double delta);
  int jtimes_ode(double t, N_Vector y, N_Vector v, N_Vector jv);

  // IDA's system dF/dy + cj dF/dy' (for F = M y' - f: cj (M - J / cj)).
  int setup_dae(double t, N_Vector y, N_Vector yp, N_Vector residual, double cj);
  int solve_dae(N_Vector r, N_Vector z, double cj, double delta);
  int jtimes_dae(double t, N_Vector y, N_Vector yp, N_Vector v, N_Vector jv, double cj);

 private:
  ProblemView* problem_ = nullptr;
  const MassMatrix* mass_ = nullptr;
  KrylovOptions options_;
  Preconditioner preconditioner_;
  Eigen::VectorXd y_, f_, v_, mv_;  // y_: the preconditioner's point, kept for its solves
  JacobianProduct product_;
  Eigen::VectorXd product_y_, product_yp_;  // the products' point
};

}  // namespace daekit::plugins::sundials
