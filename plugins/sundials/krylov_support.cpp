#include "krylov_support.hpp"

#include <sunlinsol/sunlinsol_spbcgs.h>
#include <sunlinsol/sunlinsol_spfgmr.h>
#include <sunlinsol/sunlinsol_spgmr.h>

#include <stdexcept>


namespace daekit::plugins::sundials {
namespace {

Eigen::Map<const Eigen::VectorXd> view(N_Vector v) { return {N_VGetArrayPointer(v), N_VGetLength(v)}; }
Eigen::Map<Eigen::VectorXd> edit(N_Vector v) { return {N_VGetArrayPointer(v), N_VGetLength(v)}; }

// The solver's own solve, with SUNLS_RES_REDUCED read as SUNLS_CONV_FAIL (recoverable:
// the integrator retries the step smaller, with a fresh preconditioner).
template <int (*Solve)(SUNLinearSolver, SUNMatrix, N_Vector, N_Vector, realtype)>
int converged_or_failed(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, realtype tol) {
  const int flag = Solve(s, a, x, b, tol);
  return flag == SUNLS_RES_REDUCED ? SUNLS_CONV_FAIL : flag;
}

}  // namespace

bool KrylovSupport::setup(ProblemView& problem, const SolveRequest& request, const KrylovOptions& options,
                          const MassMatrix* mass, std::string* why) {
  problem_ = &problem;
  mass_ = mass;
  options_ = options;
  const PreconditionerKind kind = Preconditioner::resolve(options.preconditioner, problem, why);
  if (kind == PreconditionerKind::automatic) return false;
  if (!preconditioner_.setup(problem, request, mass, kind, options.numbers(), why)) return false;
  const Eigen::Index n = problem.size();
  for (Eigen::VectorXd* v : {&y_, &f_, &v_, &mv_, &product_y_, &product_yp_}) v->resize(n);
  product_.setup(problem, request, mass != nullptr);
  Stats& stats = problem.stats();
  stats.linear_algebra = DK_LINEAR_ALGEBRA_KRYLOV;
  if (product_.by_differences() && !Preconditioner::forms_jacobian(kind))
    stats.jacobian_used = DK_JACOBIAN_FINITE_DIFFERENCE;
  return true;
}

void KrylovSupport::make_solver(LinearAlgebra& la, N_Vector y, Integrator integrator, SUNContext ctx) const {
  const bool right_allowed = integrator == Integrator::cvode;
  const KrylovSettings& s = options_.settings;
  // Right, where allowed: the residual tested is then the true one, b - A x (on the left
  // it is P^-1 (b - A x)); on the brusselator (N = 64, rtol 1e-6, the multigrid
  // preconditioner) CVODE took 956 steps with SPGMR on the left, 450 on the right, as
  // many as with its direct LU (docs/krylov.md). FGMRES is right-preconditioned by design.
  const int side = !preconditioned() ? SUN_PREC_NONE : right_allowed ? SUN_PREC_RIGHT : SUN_PREC_LEFT;
  switch (s.method) {
    case KrylovMethod::gmres:
      la.solver = SUNLinSol_SPGMR(y, side, s.max_dimension, ctx);
      if (la.solver) SUNLinSol_SPGMRSetMaxRestarts(la.solver, s.max_restarts);
      break;
    case KrylovMethod::fgmres:
      la.solver = SUNLinSol_SPFGMR(y, side == SUN_PREC_NONE ? SUN_PREC_NONE : SUN_PREC_RIGHT, s.max_dimension, ctx);
      if (la.solver) SUNLinSol_SPFGMRSetMaxRestarts(la.solver, s.max_restarts);
      break;
    case KrylovMethod::bicgstab: la.solver = SUNLinSol_SPBCGS(y, side, s.max_dimension, ctx); break;
  }
  if (!la.solver) throw std::runtime_error("cannot create SUNDIALS' Krylov solver");
  if (integrator != Integrator::cvode) return;
  switch (s.method) {
    case KrylovMethod::gmres: la.solver->ops->solve = &converged_or_failed<SUNLinSolSolve_SPGMR>; break;
    case KrylovMethod::fgmres: la.solver->ops->solve = &converged_or_failed<SUNLinSolSolve_SPFGMR>; break;
    case KrylovMethod::bicgstab: la.solver->ops->solve = &converged_or_failed<SUNLinSolSolve_SPBCGS>; break;
  }
}

int KrylovSupport::setup_ode(double t, N_Vector y, N_Vector fy, bool jacobian_ok, int* jacobian_current,
                             double gamma) {
  y_ = view(y);
  f_ = view(fy);
  const Eval e = preconditioner_.prepare(t, y_, f_, gamma, !jacobian_ok);
  *jacobian_current = preconditioner_.evaluated_jacobian() ? SUNTRUE : SUNFALSE;
  return to_sundials(e);
}

int KrylovSupport::solve_ode(N_Vector r, N_Vector z, double delta) {
  return to_sundials(preconditioner_.apply(view(r), edit(z), delta));
}

int KrylovSupport::jtimes_ode(double t, N_Vector y, N_Vector v, N_Vector jv) {
  product_y_ = view(y);
  product_.at(t, product_y_, product_y_, 0.0);
  return to_sundials(product_.apply(view(v), edit(jv)));
}

int KrylovSupport::setup_dae(double t, N_Vector y, N_Vector yp, N_Vector residual, double cj) {
  y_ = view(y);
  if (mass_ && preconditioner_.kind() != PreconditionerKind::problem) {
    // f for differences inside the pattern, from F = M y' - f at hand: f = M y' - F.
    v_ = view(yp);
    mass_->apply(v_, mv_);
    f_ = mv_ - view(residual);
  }
  // IDA calls this only when it wants the preconditioner anew.
  return to_sundials(preconditioner_.prepare(t, y_, f_, 1.0 / cj, true));
}

int KrylovSupport::solve_dae(N_Vector r, N_Vector z, double cj, double delta) {
  // IDA's matrix is cj (M - J / cj): the preconditioner's inverse divided by cj.
  auto out = edit(z);
  const Eval e = preconditioner_.apply(view(r), out, delta * cj);
  out /= cj;
  return to_sundials(e);
}

int KrylovSupport::jtimes_dae(double t, N_Vector y, N_Vector yp, N_Vector v, N_Vector jv, double cj) {
  auto out = edit(jv);
  product_y_ = view(y);
  product_yp_ = view(yp);
  product_.at(t, product_y_, product_yp_, cj);
  if (!mass_) return to_sundials(product_.apply(view(v), out));
  // F = M y' - f: (dF/dy + cj dF/dy') v = cj M v - J v.
  const Eval e = product_.apply(view(v), out);
  if (e != Eval::ok) return to_sundials(e);
  v_ = view(v);
  mass_->apply(v_, mv_);
  out = cj * mv_ - out;
  return 0;
}

}  // namespace daekit::plugins::sundials
