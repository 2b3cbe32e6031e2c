#include "ts_integrator.hpp"

#include <cmath>
#include <daekit/numerics/mpi_singleton.hpp>
#include <limits>

#include "runtime.hpp"

namespace daekit::plugins::petsc {
namespace {

Vec vector_of(const Eigen::VectorXd& values) {
  Vec v = nullptr;
  VecCreateSeq(PETSC_COMM_SELF, static_cast<PetscInt>(values.size()), &v);
  PetscScalar* data = nullptr;
  VecGetArray(v, &data);
  Eigen::Map<Eigen::VectorXd>(data, values.size()) = values;
  VecRestoreArray(v, &data);
  return v;
}

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

}  // namespace

TsIntegrator::~TsIntegrator() {
  if (ts_) TSDestroy(&ts_);
  for (Vec* v : {&solution_, &work_, &atol_, &rtol_})
    if (*v) VecDestroy(v);
  if (database_) PetscOptionsDestroy(&database_);
}

std::string TsIntegrator::start(double t0, const Eigen::VectorXd& y0, double h0) {
  y_ = y0;
  solution_ = vector_of(y0);
  VecDuplicate(solution_, &work_);
  atol_ = vector_of(model_.request().atol);
  rtol_ = vector_of(model_.request().rtol);
  TSCreate(PETSC_COMM_SELF, &ts_);
  TSSetProblemType(ts_, TS_NONLINEAR);
  TSSetIFunction(ts_, nullptr, &TsModel::residual, &model_);
  TSSetIJacobian(ts_, model_.matrix(), model_.matrix(), &TsModel::iteration_matrix, &model_);
  TSSetSolution(ts_, solution_);
  TSSetTime(ts_, t0);
  TSSetTimeStep(ts_, h0);
  TSSetExactFinalTime(ts_, TS_EXACTFINALTIME_MATCHSTEP);
  TSSetMaxSteps(ts_, PETSC_MAX_INT);  // the loop counts steps (--max-steps), not TS (5000 by default)
  TSSetMaxSNESFailures(ts_, -1);      // a failed Newton solve is a rejected step, as in every family
  TSSetTolerances(ts_, 0.0, atol_, 0.0, rtol_);
  if (std::string why = configure(); !why.empty()) return why;
  if (std::string why = use_options(); !why.empty()) return why;
  if (const PetscErrorCode e = TSSetUp(ts_); e != 0) return error_text(e);
  return "";
}

// The method and its linear algebra, as the options say.
std::string TsIntegrator::configure() {
  PetscErrorCode e = TSSetType(ts_, options_.ts.c_str());
  if (e == 0 && options_.ts == "rosw") e = TSRosWSetType(ts_, options_.rosw_type.c_str());
  if (e == 0 && options_.ts == "arkimex") {
    e = TSARKIMEXSetType(ts_, options_.arkimex_type.c_str());
    if (e == 0) e = TSARKIMEXSetFullyImplicit(ts_, PETSC_TRUE);  // no explicit part: f is stiff
  }
  if (e == 0 && options_.ts == "bdf") e = TSBDFSetOrder(ts_, options_.bdf_order);
  TSAdapt adapt = nullptr;
  if (e == 0) e = TSGetAdapt(ts_, &adapt);
  if (e == 0 && options_.ts == "theta") {
    e = TSThetaSetTheta(ts_, options_.theta);
    if (e == 0) e = TSThetaSetEndpoint(ts_, PETSC_TRUE);
    if (e == 0) e = TSAdaptSetType(adapt, TSADAPTBASIC);  // TSTHETA steps at a constant h without it
  }
  const SolveRequest& req = model_.request();
  if (e == 0 && (req.hmin > 0.0 || req.hmax > 0.0))
    e = TSAdaptSetStepLimits(adapt, req.hmin > 0.0 ? req.hmin : PETSC_DEFAULT, req.hmax > 0.0 ? req.hmax : PETSC_DEFAULT);
  SNES snes = nullptr;
  KSP ksp = nullptr;
  PC pc = nullptr;
  if (e == 0) e = TSGetSNES(ts_, &snes);
  if (e == 0) e = SNESGetKSP(snes, &ksp);
  if (e == 0) e = KSPSetType(ksp, options_.ksp.c_str());
  if (e == 0) e = KSPGetPC(ksp, &pc);
  if (e == 0) e = PCSetType(pc, options_.pc.c_str());
  return e == 0 ? "" : error_text(e);
}

// petsc_options in a database of this solve's own (never PETSc's global one, which the
// environment could fill), read by TS and everything under it; an option none of them
// read is an error, not silently ignored.
std::string TsIntegrator::use_options() {
  PetscErrorCode e = PetscOptionsCreate(&database_);
  if (e == 0) e = PetscOptionsInsertString(database_, options_.extra.c_str());
  if (e != 0) return "petsc_options: " + error_text(e);
  if (const std::string why = daekit_settings_in(database_); !why.empty()) return why;
  SNES snes = nullptr;
  KSP ksp = nullptr;
  PC pc = nullptr;
  TSAdapt adapt = nullptr;
  TSGetSNES(ts_, &snes);
  SNESGetKSP(snes, &ksp);
  KSPGetPC(ksp, &pc);
  TSGetAdapt(ts_, &adapt);
  for (PetscObject o : {reinterpret_cast<PetscObject>(ts_), reinterpret_cast<PetscObject>(snes),
                        reinterpret_cast<PetscObject>(ksp), reinterpret_cast<PetscObject>(pc),
                        reinterpret_cast<PetscObject>(adapt)})
    PetscObjectSetOptions(o, database_);
  {
    // PETSc 3.18 leaks its option group's title when an option's value is refused inside
    // TSSetFromOptions (an error return skips PetscOptionsEnd: LeakSanitizer, 32 bytes
    // per refusal): PETSc's allocations in this call are not ours to check.
    [[maybe_unused]] const mpi::NotOurLeaks petsc_error_path;
    e = TSSetFromOptions(ts_);
  }
  if (e != 0) return "petsc_options: " + error_text(e);
  PetscInt unused = 0;
  char **names = nullptr, **values = nullptr;
  PetscOptionsLeftGet(database_, &unused, &names, &values);
  std::string left;
  for (PetscInt i = 0; i < unused; ++i) left += std::string(left.empty() ? "" : ", ") + "-" + names[i];
  PetscOptionsLeftRestore(database_, &unused, &names, &values);
  return left.empty() ? "" : "petsc_options: PETSc did not use " + left;
}

void TsIntegrator::to_ts() {
  PetscScalar* data = nullptr;
  VecGetArray(solution_, &data);
  Eigen::Map<Eigen::VectorXd>(data, y_.size()) = y_;
  VecRestoreArray(solution_, &data);
}

void TsIntegrator::from_ts() {
  Vec current = nullptr;
  TSGetSolution(ts_, &current);
  const PetscScalar* data = nullptr;
  VecGetArrayRead(current, &data);
  y_ = Eigen::Map<const Eigen::VectorXd>(data, y_.size());
  VecRestoreArrayRead(current, &data);
}

int TsIntegrator::step(double, double* t) {
  // TSAdapt matches the last step to the final time when it chooses the next step; the
  // first step after a restart (an event, a breakpoint) was chosen before: clipped here.
  PetscReal now = 0.0, h = 0.0;
  TSGetTime(ts_, &now);
  TSGetTimeStep(ts_, &h);
  if (now + h > stop_) TSSetTimeStep(ts_, stop_ - now);
  const PetscErrorCode e = TSStep(ts_);
  TSGetTime(ts_, &now);
  *t = now;
  if (e != 0) {
    error_ = e;
    message_ = model_.failure().empty() ? error_text(e) : model_.failure();
    return -2;
  }
  TSGetConvergedReason(ts_, &reason_);
  if (reason_ < 0) {
    message_ = TSConvergedReasons[reason_];
    return -1;
  }
  // The last step before the stop time is matched to it; its end may miss it by rounding.
  if (std::abs(now - stop_) <= 4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(now), std::abs(stop_))) {
    *t = stop_;
    TSSetTime(ts_, stop_);
  }
  from_ts();
  return *t == stop_ ? 1 : 0;
}

bool TsIntegrator::interpolate(double t, Eigen::VectorXd& out) {
  PetscReal now = 0.0;
  TSGetTime(ts_, &now);
  if (t == now) {
    out = y_;
    return true;
  }
  if (TSInterpolate(ts_, t, work_) != 0) {
    message_ = "ts=" + options_.ts + (options_.ts == "rosw" ? " rosw_type=" + options_.rosw_type : "") +
               " has no dense output (TSInterpolate): output between steps and root functions need it";
    return false;
  }
  const PetscScalar* data = nullptr;
  VecGetArrayRead(work_, &data);
  out = Eigen::Map<const Eigen::VectorXd>(data, y_.size());
  VecRestoreArrayRead(work_, &data);
  return true;
}

void TsIntegrator::set_stop_time(double t) {
  stop_ = t;
  TSSetMaxTime(ts_, t);
}

int TsIntegrator::restart(double t) {
  to_ts();
  TSSetTime(ts_, t);
  return TSRestartStep(ts_) == 0 ? 0 : -2;
}

RestartOutcome TsIntegrator::reset(double t, bool reinit) {
  Eigen::VectorXd yp;
  RestartOutcome r = reinitialise_after_event(model_.problem(), model_.request(), &model_.mass(), t, reinit, y_, &yp);
  if (r.status != Status::success) return r;
  if (restart(t) != 0) return {Status::internal_error, "TSRestartStep failed", 0.0};
  return {};
}

int TsIntegrator::roll_back(double t, const Eigen::VectorXd& y, const Eigen::VectorXd&, double h) {
  y_ = y;
  TSSetTimeStep(ts_, h);
  return restart(t);
}

long TsIntegrator::steps() const {
  PetscInt accepted = 0, rejected = 0, failed = 0;
  TSGetStepNumber(ts_, &accepted);
  TSGetStepRejections(ts_, &rejected);
  TSGetSNESFailures(ts_, &failed);
  return static_cast<long>(accepted + rejected + failed);
}

double TsIntegrator::last_step() const {
  PetscReal now = 0.0, before = 0.0;
  TSGetTime(ts_, &now);
  TSGetPrevTime(ts_, &before);
  return now - before;
}

double TsIntegrator::current_step() const {
  PetscReal h = 0.0;
  TSGetTimeStep(ts_, &h);
  return h;
}

Status TsIntegrator::status_of(int flag) const {
  if (flag == -2) {
    if (!model_.failure().empty()) return Status::evaluation_failure;
    // A method with an explicit stage on a DAE, or a singular a M - J: PETSc raises it.
    return error_ == PETSC_ERR_MAT_LU_ZRPVT ? Status::singular_matrix : Status::internal_error;
  }
  switch (reason_) {
    case TS_DIVERGED_NONLINEAR_SOLVE: return Status::convergence_failures;
    case TS_DIVERGED_STEP_REJECTED: return Status::error_test_failures;
    default: return Status::internal_error;
  }
}

std::string TsIntegrator::flag_name(int flag) const {
  return flag == -2 ? "PETSc error" : "TS " + std::string(TSConvergedReasons[reason_]);
}

// A bound on the interpolant's degree, for the root functions' sampling.
int TsIntegrator::dense_degree() const { return options_.ts == "bdf" ? options_.bdf_order + 1 : 4; }

void TsIntegrator::add_stats(Stats& s) const {
  PetscInt accepted = 0, rejected = 0, failed = 0, newton = 0, linear = 0;
  TSGetStepNumber(ts_, &accepted);
  TSGetStepRejections(ts_, &rejected);
  TSGetSNESFailures(ts_, &failed);
  TSGetSNESIterations(ts_, &newton);
  TSGetKSPIterations(ts_, &linear);
  s.accepted += accepted;
  s.rejected += rejected;
  s.steps += accepted + rejected + failed;
  s.nnewton += newton;
  s.nnewton_fail += failed;
  s.nsolve += linear;
  if (options_.ksp != "preonly") s.nlin_iters += linear;
  if (options_.pc == "lu") s.nlu += model_.jacobians();  // each new matrix is factorised anew
  s.h_last = last_step();
  s.linear_algebra = options_.ksp != "preonly" ? DK_LINEAR_ALGEBRA_KRYLOV
                     : model_.sparse()         ? DK_LINEAR_ALGEBRA_SPARSE
                                               : DK_LINEAR_ALGEBRA_DENSE;
}

}  // namespace daekit::plugins::petsc
