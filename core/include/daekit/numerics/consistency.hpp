// Consistent initial values for M y' = f(t, y) with a constant singular M.
// The algebraic equations are the combinations N^T f = 0 with N^T M = 0 (for
// diag(I, 0) simply the rows with a zero in M). Policy `check` (the default)
// verifies them and names the worst violated equations; `fix_algebraic`
// changes only the algebraic components (those in the null space of M) by a
// least-squares Newton iteration, as IDACalcIC's YA_YDP mode does, and says
// what it changed.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;
class MassMatrix;

struct InitialisationOutcome {
  Status status = Status::success;
  std::string message;   // why it failed, or what was changed
  double residual = 0.0;  // largest algebraic residual at the end
};

// y' on the differential components from M y' = f (exact for identity and diagonal
// M, least squares for a dense M); algebraic components get 0.
void derivative_from_mass(const MassMatrix& mass, const ProblemView& problem, const Eigen::VectorXd& f,
                          Eigen::VectorXd& yp);

InitialisationOutcome initialise(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                                 Eigen::VectorXd& y0);

// The same service for F(t, y, y') = 0 (residual-only problems, time- or state-
// dependent mass matrices). `check` evaluates F(t0, y0, y'0); `fix_algebraic`
// solves F = 0 for y' of the differential and y of the algebraic components
// (IDACalcIC's YA_YDP), then, for what remains (constraints of index 2 and more),
// for the smallest tolerance-weighted change of y. An empty yp0 is "not given":
// `check` refuses it, `fix_algebraic` starts from zero.
InitialisationOutcome initialise_residual(ProblemView& problem, const SolveRequest& request, Eigen::VectorXd& y0,
                                          Eigen::VectorXd& yp0);

// What a restart after an event reports: success with the first step it proposes (0:
// keep the last), or why the method cannot go on.
struct RestartOutcome {
  Status status = Status::success;
  std::string message;
  double h = 0.0;
};

// What an event that changed the state asks of the restart (StepEnd::after says it):
// whether the DAE changed mode and its algebraic components are to be re-solved, and f
// at the state the reaction started from (a mass-matrix DAE's reacting problem; else
// nullptr), against which the check tells a reaction that changed the algebraic
// equations from the method's own defect in them.
struct EventRestart {
  bool reinit = false;
  const Eigen::VectorXd* rhs_before = nullptr;
};

// The same service after an event at t changed y: the algebraic components re-solved
// when `cause.reinit`, else checked: a reaction that changed the algebraic equations'
// residuals by more than their tolerance without saying so is refused, naming
// DK_EVENT_REINIT; a reaction that left them as they were finds there the method's own
// defect (its state satisfies them to its local error, its interpolant less well), which
// is removed as at a re-initialisation. Then y' when `yp` is given. `mass` is the mass
// matrix of a mass-matrix problem, nullptr for the residual form (whose y' is solved for).
RestartOutcome reinitialise_after_event(ProblemView& problem, const SolveRequest& request, const MassMatrix* mass,
                                        double t, const EventRestart& cause, Eigen::VectorXd& y, Eigen::VectorXd* yp);

// The points between the steps on an index-1 DAE (output at requested times, kept dense
// output, the states where an event is searched and handled), in every family, their
// algebraic components re-solved from the differential ones. A method's continuous
// extension is of lower order than its steps and weakest on algebraic components
// (ros34pw2's cubic Hermite interpolates them linearly; Radau IIA's collocation
// polynomial with 7 stages has order 8 against the step's 13): on crossing_dae
// (tests/abi/fixtures) y3 = y1^2 + y2 was 240 to 870 tolerances off between the steps
// while y1, y2 and every step point were within 15. Newton on the algebraic equations N^T f = 0 for the algebraic components gives them
// the differential components' accuracy, where those equations determine them (their
// block of df/dy non-singular; tba's is structurally singular: there the interpolant's
// values are kept). Allocates once; a sensitivity column is not re-solved, so a solve
// that asks for sensitivities does not use it.
class AlgebraicProjection {
 public:
  AlgebraicProjection(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass);
  ~AlgebraicProjection();
  AlgebraicProjection(const AlgebraicProjection&) = delete;
  AlgebraicProjection& operator=(const AlgebraicProjection&) = delete;

  // One for a solve that has points between the steps (output at requested times, kept
  // dense output, root functions) on a problem it serves: a mass-matrix DAE (`mass`; the
  // residual form passes nullptr) whose algebraic components are all of index 1, without
  // sensitivities. nullptr otherwise. Every family asks this.
  static std::unique_ptr<AlgebraicProjection> for_solve(ProblemView& problem, const SolveRequest& request,
                                                        const MassMatrix* mass);
  // true when a correction fell below a thousandth of the tolerances within four
  // iterations; otherwise (and when the model or the LU fails) y is left as it came.
  // df/dy is kept from point to point while Newton converges with it.
  bool apply(double t, Eigen::VectorXd& y);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace daekit
