#include "ts_setup.hpp"

#include <algorithm>
#include <cmath>
#include <daekit/numerics/mpi_singleton.hpp>
#include <daekit/problem_view.hpp>
#include <limits>

#include "runtime.hpp"

namespace daekit::plugins::petsc {
namespace {

// What daekit sets from its own options and the run (the method and its order, the
// tolerances, the stop times, the step budget) cannot be changed behind its back through
// petsc_options: the result's rtol, output times and refusals would no longer be true.
std::string daekit_settings_in(PetscOptions database) {
  static constexpr const char* owned[][2] = {
      {"-ts_type", "ts="},           {"-ts_rosw_type", "rosw_type="},   {"-ts_arkimex_type", "arkimex_type="},
      {"-ts_bdf_order", "bdf_order="}, {"-ts_theta_theta", "theta="},   {"-ts_theta_endpoint", "ts=theta"},
      {"-ts_rtol", "--rtol"},        {"-ts_atol", "--atol"},           {"-ts_max_time", "--tend"},
      {"-ts_final_time", "--tend"},  {"-ts_exact_final_time", "--tend"}, {"-ts_max_steps", "--max-steps"},
      {"-ts_max_snes_failures", "--max-steps"}, {"-ts_dt", "--h0"},   {"-ksp_type", "ksp="},
      {"-pc_type", "pc="}};
  for (const auto& [name, instead] : owned) {
    PetscBool given = PETSC_FALSE;
    PetscOptionsHasName(database, nullptr, name, &given);
    if (given) return std::string("petsc_options: ") + name + " is daekit's to set: use " + instead;
  }
  return "";
}

// A stage with a value that is not finite is rejected, and TS retries the step shorter, as
// the core's driver treats a non-finite error estimate. Without it the next norm raised
// PETSc's floating-point error and the run ended as an internal error (rosw at rtol 1e-3:
// tba from a first step of 8.1, chemakzo, ringmod, transamp). Collective: every rank alike.
PetscErrorCode finite_stage(TS ts, PetscReal, Vec y, PetscBool* accept) {
  PetscInt size = 0;
  const PetscScalar* values = nullptr;
  VecGetLocalSize(y, &size);
  VecGetArrayRead(y, &values);
  int finite = 1, all_finite = 0;
  for (PetscInt i = 0; i < size && finite; ++i) finite = std::isfinite(values[i]) ? 1 : 0;
  VecRestoreArrayRead(y, &values);
  MPI_Comm comm = MPI_COMM_NULL;
  PetscObjectGetComm(reinterpret_cast<PetscObject>(ts), &comm);
  MPI_Allreduce(&finite, &all_finite, 1, MPI_INT, MPI_MIN, comm);
  *accept = all_finite ? PETSC_TRUE : PETSC_FALSE;
  return 0;
}

}  // namespace

std::string configure_method(TS ts, const PetscTsOptions& options, const SolveRequest& req) {
  PetscErrorCode e = TSSetType(ts, options.ts.c_str());
  if (e == 0 && options.ts == "rosw") e = TSRosWSetType(ts, options.rosw_type.c_str());
  if (e == 0 && options.ts == "arkimex") {
    e = TSARKIMEXSetType(ts, options.arkimex_type.c_str());
    if (e == 0) e = TSARKIMEXSetFullyImplicit(ts, PETSC_TRUE);  // no explicit part: f is stiff
  }
  if (e == 0 && options.ts == "bdf") e = TSBDFSetOrder(ts, options.bdf_order);
  // A step TS gives up on (too many rejections, a Newton solve that never converged) is
  // its converged reason, mapped to daekit's status, not a PETSc error (which read as an
  // internal error: rober_residual with inconsistent values trusted, DIVERGED_STEP_REJECTED).
  if (e == 0) e = TSSetErrorIfStepFails(ts, PETSC_FALSE);
  if (e == 0) e = TSSetFunctionDomainError(ts, &finite_stage);
  TSAdapt adapt = nullptr;
  if (e == 0) e = TSGetAdapt(ts, &adapt);
  if (e == 0 && options.ts == "theta") {
    e = TSThetaSetTheta(ts, options.theta);
    if (e == 0) e = TSThetaSetEndpoint(ts, PETSC_TRUE);
    if (e == 0) e = TSAdaptSetType(adapt, TSADAPTBASIC);  // TSTHETA steps at a constant h without it
  }
  if (e == 0 && (req.hmin > 0.0 || req.hmax > 0.0))
    e = TSAdaptSetStepLimits(adapt, req.hmin > 0.0 ? req.hmin : PETSC_DEFAULT, req.hmax > 0.0 ? req.hmax : PETSC_DEFAULT);
  SNES snes = nullptr;
  KSP ksp = nullptr;
  PC pc = nullptr;
  if (e == 0) e = TSGetSNES(ts, &snes);
  if (e == 0) e = SNESGetKSP(snes, &ksp);
  if (e == 0) e = KSPSetType(ksp, options.ksp.c_str());
  if (e == 0) e = KSPGetPC(ksp, &pc);
  if (e == 0) e = PCSetType(pc, options.pc.c_str());
  return e == 0 ? "" : error_text(e);
}

std::string read_petsc_options(TS ts, const PetscTsOptions& options, PetscOptions* database) {
  PetscErrorCode e = PetscOptionsCreate(database);
  if (e == 0) e = PetscOptionsInsertString(*database, options.extra.c_str());
  if (e != 0) return "petsc_options: " + error_text(e);
  if (const std::string why = daekit_settings_in(*database); !why.empty()) return why;
  SNES snes = nullptr;
  KSP ksp = nullptr;
  PC pc = nullptr;
  TSAdapt adapt = nullptr;
  TSGetSNES(ts, &snes);
  SNESGetKSP(snes, &ksp);
  KSPGetPC(ksp, &pc);
  TSGetAdapt(ts, &adapt);
  for (PetscObject o : {reinterpret_cast<PetscObject>(ts), reinterpret_cast<PetscObject>(snes),
                        reinterpret_cast<PetscObject>(ksp), reinterpret_cast<PetscObject>(pc),
                        reinterpret_cast<PetscObject>(adapt)})
    PetscObjectSetOptions(o, *database);
  {
    // PETSc 3.18 leaks its option group's title when an option's value is refused inside
    // TSSetFromOptions (an error return skips PetscOptionsEnd: LeakSanitizer, 32 bytes
    // per refusal): PETSc's allocations in this call are not ours to check.
    [[maybe_unused]] const mpi::NotOurLeaks petsc_error_path;
    e = TSSetFromOptions(ts);
  }
  if (e != 0) return "petsc_options: " + error_text(e);
  PetscInt unused = 0;
  char **names = nullptr, **values = nullptr;
  PetscOptionsLeftGet(*database, &unused, &names, &values);
  std::string left;
  for (PetscInt i = 0; i < unused; ++i) left += std::string(left.empty() ? "" : ", ") + "-" + names[i];
  PetscOptionsLeftRestore(*database, &unused, &names, &values);
  return left.empty() ? "" : "petsc_options: PETSc did not use " + left;
}

Eigen::VectorXd error_test_atol(const ProblemView& problem, const SolveRequest& request) {
  Eigen::VectorXd atol = request.atol.expanded();
  if (!request.suppress_algebraic) return atol;
  for (Eigen::Index i = 0; i < atol.size(); ++i)
    if (problem.is_algebraic(i)) atol[i] = PETSC_INFINITY;
  return atol;
}

void shorten_next_step(TS ts, double h) {
  PetscReal suggested = 0.0;
  TSGetTimeStep(ts, &suggested);
  if (h > 0.0 && h < suggested) TSSetTimeStep(ts, h);
}

Status ts_failure_status(PetscErrorCode error, TSConvergedReason reason, bool model_failed) {
  if (error != 0) {
    if (model_failed) return Status::evaluation_failure;
    // A method with an explicit stage on a DAE, or a singular a M - J: PETSc raises it.
    return error == PETSC_ERR_MAT_LU_ZRPVT ? Status::singular_matrix : Status::internal_error;
  }
  switch (reason) {
    case TS_DIVERGED_NONLINEAR_SOLVE: return Status::convergence_failures;
    case TS_DIVERGED_STEP_REJECTED: return Status::error_test_failures;
    default: return Status::internal_error;
  }
}

PetscErrorCode step_until(TS ts, double stop, double* t) {
  PetscReal now = 0.0, h = 0.0;
  TSGetTime(ts, &now);
  TSGetTimeStep(ts, &h);
  if (now + h > stop) TSSetTimeStep(ts, stop - now);
  const PetscErrorCode e = TSStep(ts);
  TSGetTime(ts, &now);
  *t = now;
  if (e == 0 && std::abs(now - stop) <= 4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(now), std::abs(stop))) {
    *t = stop;
    TSSetTime(ts, stop);
  }
  return e;
}

long attempted_steps(TS ts) {
  PetscInt accepted = 0, rejected = 0, failed = 0;
  TSGetStepNumber(ts, &accepted);
  TSGetStepRejections(ts, &rejected);
  TSGetSNESFailures(ts, &failed);
  return static_cast<long>(accepted + rejected + failed);
}

void mark_out_of_domain(TS ts, bool in_jacobian) {
  SNES snes = nullptr;
  TSGetSNES(ts, &snes);
  if (in_jacobian)
    SNESSetJacobianDomainError(snes);
  else
    SNESSetFunctionDomainError(snes);
}

void add_ts_stats(TS ts, const PetscTsOptions& options, long jacobians, bool sparse, Stats& s) {
  PetscInt accepted = 0, rejected = 0, failed = 0, newton = 0, linear = 0;
  TSGetStepNumber(ts, &accepted);
  TSGetStepRejections(ts, &rejected);
  TSGetSNESFailures(ts, &failed);
  TSGetSNESIterations(ts, &newton);
  TSGetKSPIterations(ts, &linear);
  s.accepted += accepted;
  s.rejected += rejected;
  s.steps += accepted + rejected + failed;
  s.nnewton += newton;
  s.nnewton_fail += failed;
  s.nsolve += linear;
  if (options.ksp != "preonly") s.nlin_iters += linear;
  if (options.pc == "lu") s.nlu += jacobians;  // each new matrix is factorised anew
  PetscReal now = 0.0, before = 0.0;
  TSGetTime(ts, &now);
  TSGetPrevTime(ts, &before);
  s.h_last = now - before;
  s.linear_algebra = options.ksp != "preonly" ? DK_LINEAR_ALGEBRA_KRYLOV
                     : sparse                 ? DK_LINEAR_ALGEBRA_SPARSE
                                              : DK_LINEAR_ALGEBRA_DENSE;
}

}  // namespace daekit::plugins::petsc
