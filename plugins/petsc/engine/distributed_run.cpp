#include "distributed_run.hpp"


#include "distributed_model.hpp"
#include "runtime.hpp"
#include "ts_setup.hpp"

namespace daekit::plugins::petsc {
namespace {

// What the distributed path does not do yet: refused by name, on every rank alike
// (backwards integration the engine refused before either path).
std::string unsupported(const ProblemView& problem, const SolveRequest& req, const PetscTsOptions& options) {
  if (options.pc == "ilu")
    return "pc=ilu is PETSc's ILU of one process; over MPI ranks use pc=bjacobi or pc=asm (ILU(0) in each "
           "rank's block) with ksp=gmres";
  if (problem.nroots() > 0 || problem.has_time_events() || problem.wants_step_notification())
    return "events on a problem spread over MPI ranks: not yet (run it whole, on one rank)";
  if (req.keep_dense) return "the kept dense output of a problem spread over MPI ranks: not yet";
  const dk_problem_info& info = problem.info();
  if (DK_HAS_FIELD(&info, dk_problem_info, constraints) && info.constraints)
    return "sign constraints on a problem spread over MPI ranks: not yet (run it whole, on one rank)";
  return "";
}

// One TS over the ranks, its output gathered to rank 0.
class DistributedRun {
 public:
  DistributedRun(DistributedModel& model, OutputSink& sink, const PetscTsOptions& options)
      : model_(model), sink_(sink), options_(options), req_(model.request()) {}
  ~DistributedRun() {
    if (ts_) TSDestroy(&ts_);
    if (to_zero_) VecScatterDestroy(&to_zero_);
    for (Vec* v : {&solution_, &work_, &atol_, &rtol_, &on_zero_})
      if (*v) VecDestroy(v);
    if (database_) PetscOptionsDestroy(&database_);
  }
  DistributedRun(const DistributedRun&) = delete;
  DistributedRun& operator=(const DistributedRun&) = delete;

  std::string start();
  SolveOutcome run();
  void add_stats(Stats& s) const { add_ts_stats(ts_, options_, model_.jacobians(), true, s); }

 private:
  bool emit(double t, Vec y);  // collective; false when rank 0's sink asked to stop
  bool emit_owned(double t, Vec y);  // the same with local rows: every rank's sink, any one stops
  SolveOutcome ended(Status status, std::string message);  // collective
  double stop_after(double t);

  DistributedModel& model_;
  OutputSink& sink_;
  const PetscTsOptions& options_;
  const SolveRequest& req_;
  TS ts_ = nullptr;
  Vec solution_ = nullptr, work_ = nullptr, atol_ = nullptr, rtol_ = nullptr, on_zero_ = nullptr;
  VecScatter to_zero_ = nullptr;
  PetscOptions database_ = nullptr;
  Eigen::VectorXd gathered_;  // the point a sink takes: gathered on rank 0, or the owned rows
  std::size_t next_tstop_ = 0;
  double t_ = 0.0;
};

std::string DistributedRun::start() {
  solution_ = model_.vector_of(req_.y0);
  VecDuplicate(solution_, &work_);
  atol_ = model_.vector_of(error_test_atol(model_.problem(), req_));
  rtol_ = model_.vector_of(req_.rtol);
  if (!model_.local_rows()) VecScatterCreateToZero(solution_, &to_zero_, &on_zero_);  // rank 0 gathers
  if (req_.init != InitPolicy::trust)
    if (std::string why = model_.check_algebraic_rows(solution_); !why.empty()) return why;
  const double h0 = req_.h0 > 0.0 ? req_.h0 : model_.first_step(req_.t0, solution_);
  if (!(h0 > 0.0)) return "choosing the first step: f at t0 could not be evaluated";
  TSCreate(model_.communicator(), &ts_);
  TSSetProblemType(ts_, TS_NONLINEAR);
  TSSetIFunction(ts_, nullptr, &DistributedModel::residual, &model_);
  TSSetIJacobian(ts_, model_.matrix(), model_.matrix(), &DistributedModel::iteration_matrix, &model_);
  TSSetSolution(ts_, solution_);
  TSSetTime(ts_, req_.t0);
  TSSetTimeStep(ts_, h0);
  TSSetExactFinalTime(ts_, TS_EXACTFINALTIME_MATCHSTEP);
  TSSetMaxSteps(ts_, PETSC_MAX_INT);
  TSSetMaxSNESFailures(ts_, -1);
  TSSetTolerances(ts_, 0.0, atol_, 0.0, rtol_);
  if (std::string why = configure_method(ts_, options_, req_); !why.empty()) return why;
  if (std::string why = read_petsc_options(ts_, options_, &database_); !why.empty()) return why;
  if (const PetscErrorCode e = TSSetUp(ts_); e != 0) return error_text(e);
  return "";
}

bool DistributedRun::emit(double t, Vec y) {
  if (model_.local_rows()) return emit_owned(t, y);
  VecScatterBegin(to_zero_, y, on_zero_, INSERT_VALUES, SCATTER_FORWARD);
  VecScatterEnd(to_zero_, y, on_zero_, INSERT_VALUES, SCATTER_FORWARD);
  int go_on = 1;
  if (model_.rank() == 0) {
    const PetscScalar* data = nullptr;
    PetscInt size = 0;
    VecGetLocalSize(on_zero_, &size);
    VecGetArrayRead(on_zero_, &data);
    gathered_ = Eigen::Map<const Eigen::VectorXd>(data, size);
    VecRestoreArrayRead(on_zero_, &data);
    go_on = sink_.emit(t, gathered_) ? 1 : 0;
  }
  MPI_Bcast(&go_on, 1, MPI_INT, 0, model_.communicator());
  return go_on != 0;
}

// Local rows: every rank's sink takes its owned rows; one that asks to stop stops all.
bool DistributedRun::emit_owned(double t, Vec y) {
  const PetscScalar* data = nullptr;
  VecGetArrayRead(y, &data);
  gathered_ = Eigen::Map<const Eigen::VectorXd>(data, model_.owned());
  VecRestoreArrayRead(y, &data);
  int go_on = sink_.emit(t, gathered_) ? 1 : 0, all_go_on = 0;
  MPI_Allreduce(&go_on, &all_go_on, 1, MPI_INT, MPI_MIN, model_.communicator());
  return all_go_on != 0;
}

SolveOutcome DistributedRun::ended(Status status, std::string message) {
  // A failed run's last state (TS keeps the last accepted one) is its output point in output
  // mode end, as in the one-process loops; every rank ends on the same failure, agreed.
  if (!is_success(status) && req_.output == OutputMode::end && !sink_.wants_sensitivities())
    static_cast<void>(emit(t_, solution_));
  return {status, std::move(message), t_};
}

// The next breakpoint after t, or tend.
double DistributedRun::stop_after(double t) {
  while (next_tstop_ < req_.tstops.size() && req_.tstops[next_tstop_] <= t) ++next_tstop_;
  return next_tstop_ < req_.tstops.size() ? req_.tstops[next_tstop_] : req_.tend;
}

SolveOutcome DistributedRun::run() {
  t_ = req_.t0;
  if (req_.output == OutputMode::every_step && !emit(t_, solution_)) return ended(Status::stopped_by_observer, "");
  std::size_t next_save = 0;
  for (; next_save < req_.saveat.size() && req_.saveat[next_save] == t_; ++next_save)
    if (!emit(t_, solution_)) return ended(Status::stopped_by_observer, "");
  double stop = stop_after(t_);
  TSSetMaxTime(ts_, stop);
  long taken = 0;
  while (t_ < req_.tend) {
    if (taken >= req_.max_steps)
      return ended(Status::too_many_steps, "reached the maximum of " + std::to_string(req_.max_steps) +
                                               " steps at t=" + std::to_string(t_) + " before tend; raise --max-steps");
    const PetscErrorCode e = step_until(ts_, stop, &t_);
    taken = attempted_steps(ts_);
    TSConvergedReason reason = TS_CONVERGED_ITERATING;
    if (e == 0) TSGetConvergedReason(ts_, &reason);
    if (e != 0 || reason < 0) {
      const std::string what = e != 0 ? (model_.failure().empty() ? error_text(e) : model_.failure())
                                      : std::string("TS ") + TSConvergedReasons[reason];
      return ended(ts_failure_status(e, reason, !model_.failure().empty()), what + " at t=" + std::to_string(t_));
    }
    for (; next_save < req_.saveat.size() && req_.saveat[next_save] <= t_; ++next_save) {
      const double ts = req_.saveat[next_save];
      if (ts != t_ && TSInterpolate(ts_, ts, work_) != 0)
        return ended(Status::unsupported_problem, "ts=" + options_.ts + " has no dense output (TSInterpolate)");
      if (!emit(ts, ts == t_ ? solution_ : work_)) return ended(Status::stopped_by_observer, "");
    }
    if (req_.output == OutputMode::every_step && !emit(t_, solution_)) return ended(Status::stopped_by_observer, "");
    if (t_ == stop && t_ < req_.tend) {  // a breakpoint: TS restarts there
      TSRestartStep(ts_);
      // The first step after it as at t0 (TsIntegrator::after_breakpoint says why;
      // collective: every rank the same h).
      shorten_next_step(ts_, model_.first_step(t_, solution_));
      stop = stop_after(t_);
      TSSetMaxTime(ts_, stop);
    }
  }
  if (req_.output == OutputMode::end && !emit(t_, solution_)) return ended(Status::stopped_by_observer, "");
  return ended(Status::success, "");
}

}  // namespace

SolveOutcome solve_distributed(ProblemView& problem, const SolveRequest& req, OutputSink& sink,
                               const PetscTsOptions& options) {
  if (const std::string why = unsupported(problem, req, options); !why.empty()) return {Status::unsupported_problem, why, req.t0};
  DistributedModel model(problem, req);
  if (const std::string why = model.setup(); !why.empty()) return {Status::invalid_input, why, req.t0};
  DistributedRun run(model, sink, options);
  if (const std::string why = run.start(); !why.empty()) return {Status::invalid_input, why, req.t0};
  problem.stats().jacobian_used = problem.has_jacobian_local() && req.jacobian != JacobianSource::finite_difference
                                      ? DK_JACOBIAN_ANALYTIC
                                      : DK_JACOBIAN_FINITE_DIFFERENCE;
  SolveOutcome out = run.run();
  run.add_stats(problem.stats());
  return out;
}

}  // namespace daekit::plugins::petsc
