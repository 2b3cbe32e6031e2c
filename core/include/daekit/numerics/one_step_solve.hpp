// The wiring every one-step method shares, in one place: the constant mass matrix,
// the initial-value policy, the error norm, the iteration matrix, the automatic
// first step and the driver. A method supplies its stepper and its controller.
#pragma once

#include <memory>
#include <optional>

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/controller.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/initial_step.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"

namespace daekit {

// make_stepper(mass, matrix, norm) -> std::unique_ptr<Stepper>;
// make_controller(const Stepper&) -> std::unique_ptr<StepController>.
// `order` is the method's order, for the automatic first step.
template <class MakeStepper, class MakeController>
SolveOutcome solve_one_step(ProblemView& problem, const SolveRequest& request, OutputSink& sink, int order,
                            bool allow_sparse, MakeStepper&& make_stepper, MakeController&& make_controller) {
  Eigen::VectorXd y = request.y0;
  MassMatrix mass;
  if (mass.setup(problem, request.t0, y) != Eval::ok)
    return {Status::evaluation_failure, problem.last_message(), request.t0};
  const InitialisationOutcome init = initialise(problem, request, mass, y);
  if (init.status != Status::success) return {init.status, init.message, request.t0};

  const ErrorNorm norm = ErrorNorm::for_request(request, problem);
  IterationMatrix matrix;
  matrix.setup(problem, request, mass, allow_sparse);
  auto stepper = make_stepper(mass, matrix, norm);
  if (stepper->start(request.t0, y) != Eval::ok)
    return {Status::evaluation_failure, "at t0: " + problem.last_message(), request.t0};
  double h0 = request.h0;
  if (h0 <= 0.0 &&
      initial_step(problem, norm, mass, request.t0, y, stepper->f_start(), order, request.hmax, &h0) != Eval::ok)
    return {Status::evaluation_failure, "choosing the initial step: " + problem.last_message(), request.t0};
  auto controller = make_controller(*stepper);
  // A plugin may be called without the host's option check: an unknown name is refused, not run.
  if (!controller) return {Status::invalid_input, "unknown step-size controller", request.t0};
  // After an event changed the state: consistent algebraic components again (re-solved
  // when the event asks for it, else checked), f anew, and a first step from scratch.
  const Restart restart = [&](double t, Eigen::VectorXd& y_event, const EventRestart& cause) -> RestartOutcome {
    if (RestartOutcome again = reinitialise_after_event(problem, request, &mass, t, cause, y_event, nullptr);
        again.status != Status::success)
      return again;
    if (stepper->restart(t, y_event) != Eval::ok) return {Status::evaluation_failure, problem.last_message(), 0.0};
    double h = 0.0;
    if (initial_step(problem, norm, mass, t, y_event, stepper->f_start(), order, request.hmax, &h) != Eval::ok)
      return {Status::evaluation_failure, "choosing the first step: " + problem.last_message(), 0.0};
    return {Status::success, "", h};
  };
  // Output at requested times and events, kept dense output: an index-1 DAE's algebraic
  // components re-solved there.
  const auto projection = AlgebraicProjection::for_solve(problem, request, &mass);
  SolveOutcome out =
      drive(*stepper, problem, request, sink, *controller, h0, y, DriverLimits{}, restart, projection.get());
  if (!init.message.empty() && is_success(out.status)) out.message = init.message;
  return out;
}

}  // namespace daekit
