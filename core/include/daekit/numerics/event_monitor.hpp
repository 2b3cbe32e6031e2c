// The events of one integration (ABI 1.2): the problem's root functions watched over
// every accepted step, its time events, and what happens at each: the problem's
// on_event, the points at both limits of a reset, the event sink, the event count and
// its limit (chattering ends with too_many_events). The driver owns the loop; this owns
// the bookkeeping, so the loop reads as the steps it takes.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/function_ref.hpp"
#include "daekit/numerics/root_finder.hpp"
#include "daekit/numerics/sensitivity_jump.hpp"
#include "daekit/output_sink.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

class EventMonitor {
 public:
  // y(t) on the last accepted step.
  using Interpolant = FunctionRef<void(double t, Eigen::VectorXd& y)>;

  EventMonitor(ProblemView& problem, const SolveRequest& request, OutputSink& sink);
  bool active() const { return nroots_ > 0 || problem_.has_time_events(); }
  ProblemView& problem() { return problem_; }

  // At t0 and after every restart: the root functions' values there, the next time event.
  Eval start(double t, const Eigen::VectorXd& y);
  // The next time event after the last start (+inf or -inf when none).
  double next_time_event() const { return next_time_; }
  // Whether a step that may run to `stop` (a breakpoint or tend) must land on the next time
  // event and handle it: it comes no later than stop, and not at tend (within rounding), as
  // a root at tend is not an event. Every loop asks this, so every family agrees.
  bool time_event_by(double stop) const {
    return request_.direction() * (next_time_ - stop) <= 0.0 && request_.direction() * (next_time_ - request_.tend) < 0.0 &&
           !at_tend(next_time_);
  }

  // The earliest root in (t_from, t_to] of the step that ends at (t_to, y_to), y between
  // given by `y_at`. g is sampled at the request's event_samples interior points, equally
  // spaced, and each piece searched in turn, so crossings that come in pairs inside a step
  // are found unless both fall between two neighbouring samples (docs/events.md); where
  // the parabola through a piece's samples and a neighbour turns back across zero inside
  // the piece (a flat root: a pair close together), g is looked at there too. A root
  // within a few hundred ulps of tend is not one: an event at tend is not handled, as a
  // time event at tend is not. On found: *root says when and which, state_at_root() the
  // state there. The next search of the same step starts from root->t.
  //
  // `y_refined_at` (nullptr: none) is y between the steps as the output has it where that
  // differs from the method's interpolant (an index-1 DAE's algebraic components
  // re-solved: numerics/consistency.hpp): the samples use the interpolant, a piece that
  // crosses is searched on this, so the root, its state and the sign there agree with the
  // state the event reports and the method restarts from (the interpolant's algebraic
  // components put a root of g(y3) up to their error / |dy3/dt| away).
  Eval find(double t_from, double t_to, const Eigen::VectorXd& y_to, const Interpolant& y_at, RootBracket* root,
            bool* found, const Interpolant* y_refined_at = nullptr);
  const Eigen::VectorXd& state_at_root() const { return y_root_; }

  // Whether the event at `root` ends the step there: any reaction does (a mode the
  // equations do not show may have changed, handle()), as a terminal function does.
  bool ends_step(const RootBracket& root) const;

  // y at t from the accepted step taken again from its start to t; false: it could not be.
  using Retake = FunctionRef<bool(double t, Eigen::VectorXd& y)>;
  // The root `find` located on the interpolant of the step (t_from, t_to], moved to the
  // step's own accuracy where the event will end the step there: the state from the step
  // re-taken to the root (a one-step method's interpolant is of lower order than its step:
  // radauiia's collocation polynomial s + 1 against 2s - 1), and the root time corrected by
  // Newton's rule on g along the re-taken steps (the slope from the interpolant, then their
  // secant) until a correction would move the state by a hundredth of its tolerance or
  // less, at most three re-takes. The result is on the new side of every function that
  // fired, as a located root is; where no re-taken state is, the interpolant's stays.
  // Updates root->t and state_at_root().
  Eval land(double t_from, double t_to, const Interpolant& y_at, const Retake& retake, RootBracket* root);

  struct Handled {
    Status status = Status::success;  // success: go on; else how the integration ends
    std::string message;
    std::uint32_t action = DK_EVENT_CONTINUE;
    bool changed = false;  // on_event changed y (or asked for re-initialisation)
  };
  // Runs the protocol of one event at (t, y): counts it, emits the left limit, calls
  // on_event (which may change y), applies terminal flags, reports it, emits the right
  // limit when y changed.
  Handled handle(double t, std::uint32_t kind, const RootBracket* root, Eigen::VectorXd& y);

  // After the step continued past an event without a change: the values at the event
  // are the left end of the rest of the step.
  void continue_after_event(const RootBracket& root);

  // With sensitivities: why they cannot be carried through this problem's events ("" when
  // they can), and s+ after the last event that changed y or the problem's mode (nullptr
  // when none since the last start): the method restarts from it.
  std::string sensitivities_refused() const { return jump_ && active() ? jump_->refused() : ""; }
  const Eigen::MatrixXd* sensitivities_after_event() const { return s_jumped_ ? &s_event_ : nullptr; }

  // f at the state the last reaction started from, kept for a mass-matrix DAE whose
  // problem reacts (nullptr otherwise): the restart's check compares the algebraic
  // equations' residuals after the reaction with these (EventRestart).
  const Eigen::VectorXd* rhs_before_event() const { return rhs_before_.size() > 0 ? &rhs_before_ : nullptr; }

 private:
  Eval roots_at(double t, const Eigen::VectorXd& y, Eigen::VectorXd& g);
  // Whether t is tend, up to the rounding of event times accumulated on the way there.
  bool at_tend(double t) const;
  // A fired function's value g on the side its crossing (direction +1 rising, -1 falling)
  // leads to, or at zero.
  static bool on_new_side(double g, std::int8_t direction) { return g == 0.0 || (g > 0.0) == (direction > 0); }
  // Whether one of the functions that fired at `root` has reached its new side in g.
  bool crossed_at(const RootBracket& root, const Eigen::VectorXd& g) const;
  // Whether every one of them has.
  bool all_crossed_at(const RootBracket& root, const Eigen::VectorXd& g) const;
  // How far y_at moves over dt from t, in units of the tolerances (the largest component).
  double moved_by(const Interpolant& y_at, double t, double dt);
  // d/dt of the first fired function times its direction, on y_at around root.t.
  Eval slope_at_root(double t_from, double t_to, const Interpolant& y_at, const RootBracket& root, double* slope);
  // Where a function that keeps its sign over piece j of the samples may turn back across
  // zero (the turning point of a parabola through its samples), the earliest; false: none.
  bool turning_point(int j, int pieces, double* probe, Eigen::Index* function) const;
  // Refines *probe towards where function i turns in (a, b), ending with g there in g_probe_.
  template <class G>
  Eval look_at_turn(G& g, double a, double b, Eigen::Index i, double* probe);
  // s- at the event before on_event runs; false (with out's status) when it cannot be had.
  bool sensitivities_before(const dk_event& event, const Eigen::VectorXd& y, Handled& out);

  ProblemView& problem_;
  const SolveRequest& request_;
  OutputSink& sink_;
  std::size_t nroots_;
  RootFinder finder_;
  Eigen::VectorXd g_left_, g_right_, g_root_, g_piece_left_, g_piece_right_, g_probe_, y_scratch_, yp_none_, y_before_;
  std::vector<double> times_;  // of the samples of the step being searched
  Eigen::MatrixXd samples_;    // g at times_, a column each
  double next_time_;
  std::optional<SensitivityJump> jump_;  // with sensitivities asked for
  Eigen::MatrixXd s_event_;               // s- at the event, then s+
  Eigen::VectorXd rhs_before_;            // rhs_before_event(); empty where not kept
  Eigen::VectorXd y_root_;                // state_at_root()
  Eigen::VectorXd y_landed_, g_landed_;   // a re-taken step's end and g there (land)
  Eigen::VectorXd y_moved_;               // moved_by's
  // A restart re-solves the algebraic components (a residual-form DAE's always, whose
  // crossings are searched on the interpolant), which may put a function that fired back
  // on its old side: the trajectory from there crosses again a little later, the same
  // event. The last reacting event's functions that its reaction left alone (y and g as
  // they were, no re-initialisation), then those so put back, with |g| at the restart or
  // the last step's end: a crossing of theirs in the same direction while |g| has only
  // fallen is not reported again (find).
  RootBracket reacted_;
  struct Recrossing {
    std::int32_t function;
    std::int8_t direction;
    double distance;
  };
  std::vector<Recrossing> recrossing_;
  // Whether every function of `root` is one put back by the restart; those are dropped.
  bool crossed_again(const RootBracket& root);
  // After a step without a root: the functions put back that did not come nearer to zero
  // are dropped (they turned away: their next crossing is a new event).
  void forget_turned_away();
  bool s_jumped_ = false;
};

}  // namespace daekit
