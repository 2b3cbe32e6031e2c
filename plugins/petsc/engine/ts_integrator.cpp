#include "ts_integrator.hpp"


#include "runtime.hpp"
#include "ts_setup.hpp"

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
  atol_ = vector_of(error_test_atol(model_.problem(), model_.request()));
  rtol_ = vector_of(model_.request().rtol.expanded());
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
  if (std::string why = configure_method(ts_, options_, model_.request()); !why.empty()) return why;
  if (std::string why = read_petsc_options(ts_, options_, &database_); !why.empty()) return why;
  if (const PetscErrorCode e = TSSetUp(ts_); e != 0) return error_text(e);
  return "";
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
  const PetscErrorCode e = step_until(ts_, stop_, t);
  if (e != 0) {
    error_ = e;
    message_ = model_.failure().empty() ? error_text(e) : model_.failure();
    return -2;
  }
  TSGetConvergedReason(ts_, &reason_);
  if (reason_ < 0) {
    message_ = reason_ == TS_DIVERGED_STEP_REJECTED
                   ? "the error test rejected the step until TS gave up (its limit: -ts_max_reject)"
               : reason_ == TS_DIVERGED_NONLINEAR_SOLVE ? "the Newton solves failed until TS gave up"
                                                        : TSConvergedReasons[reason_];
    return -1;
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

// The first step after a breakpoint or an event starts as at t0, from a first
// step's length at (t, y), never at the length the step before suggested: a breakpoint
// marks a corner that length knows nothing of, as bdf's restart at order 1 also says.
// TSTHETA has no error estimate for that step at all (TSAdapt takes it as it stands): nand,
// whose 15 breakpoints are its inputs' corners, took one step of 5 per interval and ended
// 2.4 digits accurate at rtol 1e-6 (now 6.8); rosw's step of 5 across a corner produced a
// NaN in TS's error norm, a PETSc error at t = 15 (now 8.2 digits).
void TsIntegrator::after_breakpoint(double t) {
  Eigen::VectorXd yp;  // the residual form's first step needs y'(t)
  if (model_.residual_form()) {
    Eigen::VectorXd y = y_;
    if (reinitialise_after_event(model_.problem(), model_.request(), nullptr, t, EventRestart{}, y, &yp).status !=
        Status::success)
      yp.resize(0);  // DASSL's rule without a slope: 0.001 of the span left
  }
  start_afresh(t, yp);
}

void TsIntegrator::start_afresh(double t, const Eigen::VectorXd& yp) {
  double h = 0.0;
  std::string why;
  if (model_.first_step(t, y_, yp, &h, &why)) shorten_next_step(ts_, h);  // else the step is TS's
}

RestartOutcome TsIntegrator::reset(double t, const EventRestart& cause) {
  Eigen::VectorXd yp;
  RestartOutcome r = reinitialise_after_event(model_.problem(), model_.request(),
                                              model_.residual_form() ? nullptr : &model_.mass(), t, cause, y_, &yp);
  if (r.status != Status::success) return r;
  if (restart(t) != 0) return {Status::internal_error, "TSRestartStep failed", 0.0};
  start_afresh(t, yp);  // an event, too, is a corner (y' from the reinitialisation)
  return {};
}

int TsIntegrator::roll_back(double t, const Eigen::VectorXd& y, const Eigen::VectorXd&, double h) {
  y_ = y;
  TSSetTimeStep(ts_, h);
  return restart(t);
}

long TsIntegrator::steps() const { return attempted_steps(ts_); }

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
  return ts_failure_status(flag == -2 ? error_ : 0, reason_, !model_.failure().empty());
}

std::string TsIntegrator::flag_name(int flag) const {
  return flag == -2 ? "PETSc error" : "TS " + std::string(TSConvergedReasons[reason_]);
}

// A bound on the interpolant's degree, for the root functions' sampling.
int TsIntegrator::dense_degree() const { return options_.ts == "bdf" ? options_.bdf_order + 1 : 4; }

void TsIntegrator::add_stats(Stats& s) const { add_ts_stats(ts_, options_, model_.jacobians(), model_.sparse(), s); }

}  // namespace daekit::plugins::petsc
