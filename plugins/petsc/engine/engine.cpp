// The PETSc engine's solve: the model and TS set up, then the core's one-step loop (output,
// breakpoints, events, constraints, the step budget) over TS's steps.
#include <daekit/numerics/consistency.hpp>
#include <daekit/numerics/event_monitor.hpp>
#include <daekit/numerics/one_step_loop.hpp>

#include "../engine_table.hpp"
#include "distributed_run.hpp"
#include "runtime.hpp"
#include "ts_integrator.hpp"
#include "ts_model.hpp"

namespace daekit::plugins::petsc {
namespace {

// Consistent y(t0) (and y'(t0) for the residual form) by the core's services.
InitialisationOutcome consistent_start(TsModel& model, Eigen::VectorXd& y0, Eigen::VectorXd& yp0) {
  const SolveRequest& req = model.request();
  if (model.residual_form()) return initialise_residual(model.problem(), req, y0, yp0);
  return initialise(model.problem(), req, model.mass(), y0);
}

// A TS type without TSInterpolate answers at its step ends only: refused before the run
// where output between steps, root functions or the kept dense output need more.
std::string dense_output_refusal(const ProblemView& problem, const SolveRequest& req, const PetscTsOptions& o) {
  if (petsc_has_dense_output(o)) return "";
  const bool between = req.output == OutputMode::saveat && !(req.saveat.size() == 1 && req.saveat[0] == req.tend);
  if (!between && problem.nroots() == 0 && !req.keep_dense) return "";
  return "rosw_type=" + o.rosw_type + " has no dense output (PETSc's TSInterpolate), which " +
         (between ? "output between steps" : problem.nroots() > 0 ? "root functions" : "the kept dense output") +
         " need: use another rosw_type (ra34pw2) or output at tend";
}

SolveOutcome solve(ProblemView& problem, const SolveRequest& req, OutputSink& sink, const PetscTsOptions& options) {
  if (req.direction() < 0.0)
    return {Status::unsupported_problem, "petsc integrates forward in time only (TS's final time)", req.t0};
  if (const std::string why = dense_output_refusal(problem, req, options); !why.empty())
    return {Status::unsupported_problem, why, req.t0};
  if (std::string why; !start_petsc(&why)) return {Status::internal_error, why, req.t0};
  if (problem.distribution()) return solve_distributed(problem, req, sink, options);
  TsModel model(problem, req);
  if (const std::string why = model.setup(req.y0); !why.empty()) return {Status::evaluation_failure, why, req.t0};
  Eigen::VectorXd y0 = req.y0, yp0 = req.yp0;
  const InitialisationOutcome init = consistent_start(model, y0, yp0);
  if (init.status != Status::success) return {init.status, init.message, req.t0};
  double h0 = 0.0;
  if (req.h0 > 0.0)
    h0 = req.h0;
  else if (std::string why; !model.first_step(req.t0, y0, yp0, &h0, &why))
    return {Status::evaluation_failure, why, req.t0};
  TsIntegrator ts(model, options);
  if (const std::string why = ts.start(req.t0, y0, h0); !why.empty()) return {Status::invalid_input, why, req.t0};
  if (req.output == OutputMode::every_step && !sink.emit(req.t0, y0)) return {Status::stopped_by_observer, "", req.t0};
  for (std::size_t k = 0; k < req.saveat.size() && req.saveat[k] == req.t0; ++k)
    if (!sink.emit(req.t0, y0)) return {Status::stopped_by_observer, "", req.t0};
  EventMonitor events(problem, req, sink);
  // Output between the steps and events of an index-1 DAE: its algebraic components re-solved.
  const auto projection = AlgebraicProjection::for_solve(problem, req, model.residual_form() ? nullptr : &model.mass());
  SolveOutcome out = one_step_loop(ts, req, sink, static_cast<long>(req.max_steps), events, projection.get());
  ts.add_stats(problem.stats());
  if (!init.message.empty() && is_success(out.status)) out.message = init.message;
  return out;
}

const daekit_petsc_engine_table table = {DAEKIT_PETSC_ENGINE_VERSION, &solve};

}  // namespace
}  // namespace daekit::plugins::petsc

extern "C" __attribute__((visibility("default"))) const daekit_petsc_engine_table* daekit_petsc_engine() {
  return &daekit::plugins::petsc::table;
}
