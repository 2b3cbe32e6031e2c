// What happens after a step was accepted, the same for every family: the events inside
// the step (root functions searched on its dense output, the time event it landed on),
// the notification of a problem that asks after every step (FMI's
// completedIntegratorStep), output at requested times, every step and into the kept
// dense output, and how the integration goes on. The core's driver (numerics/driver.hpp)
// and the SUNDIALS adapters' one-step loop call it, so an event, a stop or an output
// point means the same in each: the loops keep only what is theirs (step-size control,
// breakpoints, restarting their method).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <limits>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/event_monitor.hpp"
#include "daekit/numerics/function_ref.hpp"
#include "daekit/output_sink.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class AlgebraicProjection;
struct EventRestart;

struct SolveOutcome {
  Status status = Status::internal_error;
  std::string message;
  double t_reached = std::numeric_limits<double>::quiet_NaN();
};

class StepEnd {
 public:
  // y(t) anywhere on the accepted step; false when the stepper cannot say (the run then
  // ends with internal_error).
  using Interpolant = FunctionRef<bool(double t, Eigen::VectorXd& y)>;

  StepEnd(ProblemView& problem, const SolveRequest& request, OutputSink& sink, EventMonitor& events);

  // At t0: the root functions' values, and the points requested there (unless the caller
  // emitted them). false: the run ends as *out says.
  bool begin(double t0, const Eigen::VectorXd& y0, SolveOutcome* out, bool emit_points_at_t0 = true);

  struct Step {
    double t_old = 0.0, t_new = 0.0;
    Eigen::VectorXd* y_end = nullptr;  // the end; on return the state the run goes on from
    Interpolant y_at;                  // on [t_old, t_new]
    int dense_degree = -1;             // the dense polynomial's degree; < 0: none kept
    bool landed_on_time_event = false; // t_new is the time event the monitor named
    // y at t from the step taken again from t_old (a one-step method's); nullptr: none.
    // An event that ends the step inside it is moved onto such a step (EventMonitor::land).
    const EventMonitor::Retake* retake = nullptr;
  };
  enum class Next {
    go_on,          // nothing happened: the method continues from its own step end
    event_at_end,   // an event at t_new left the state as it was (its time event, a
                    // step event): go on from there, the events restarted
    restart,        // an event changed the state at *t: restart the method there, then resume()
    finish          // the run ends as *out says
  };
  // *t: where the run is after the step (the step's end, or where an event cut it);
  // *restart: with Next::restart, what the event asks of the method's restart.
  Next after(Step& step, double* t, EventRestart* restart, SolveOutcome* out);

  // After the method restarted at (t, y): the root functions' values there, the next time
  // event. false: the run ends as *out says.
  bool resume(double t, const Eigen::VectorXd& y, SolveOutcome* out);

  // With sensitivities, s+ after the event that made after() say restart: the method
  // restarts its sensitivities from it (nullptr: no sensitivities).
  const Eigen::MatrixXd* sensitivities_after_event() const { return events_.sensitivities_after_event(); }

  // Output points at requested times, events inside a step and the kept dense output's
  // interior samples get their algebraic components re-solved by this (an index-1 DAE's,
  // numerics/consistency.hpp); nullptr: the interpolant's as they are.
  void project_saved_points(AlgebraicProjection* projection) { projection_ = projection; }

  // The end of a run that reached tend: the final point in output mode end.
  SolveOutcome success(double t, const Eigen::VectorXd& y);
  // A run that ends failed (too many steps, a step too small, ...) at (t, y), the last
  // state it reached: in output mode end that state is its output point, as scipy returns
  // what a failed solve reached, so a caller asking for the end alone still sees where the
  // run got (the status says it is not tend). Not with sensitivities asked for.
  void failed_at(double t, const Eigen::VectorXd& y);

 private:
  bool emit_saved_until(double t_limit, const Interpolant& y_at, double* t_stopped);
  // Into the kept dense output, the step up to t_end; false when y_output_at failed.
  bool keep_dense(const Step& s, double t_end, const Interpolant& y_output_at);
  // An event that ends the step inside it moved onto the step re-taken to it, where the
  // stepper can (EventMonitor::land); y_between: y on the step as the search had it.
  Eval land(const Step& s, const EventMonitor::Interpolant& y_between, RootBracket* root);
  Next finish(SolveOutcome* out, Status status, std::string message, double t);
  // The step ended at t_end with an event (handled_ says which): stop, restart, or go on.
  Next after_event(double t_end, const Eigen::VectorXd& y_end, bool stopped_by_model, EventRestart* restart,
                   SolveOutcome* out);

  ProblemView& problem_;
  const SolveRequest& req_;
  OutputSink& sink_;
  EventMonitor& events_;
  DenseHistory* const dense_;
  std::size_t next_save_ = 0;
  Eigen::VectorXd y_out_, y_piece_;
  Eigen::MatrixXd dense_samples_;
  EventMonitor::Handled handled_;
  AlgebraicProjection* projection_ = nullptr;
};

}  // namespace daekit
