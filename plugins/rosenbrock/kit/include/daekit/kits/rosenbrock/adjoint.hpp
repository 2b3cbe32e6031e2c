// The discrete adjoint of a Rosenbrock method: the exact gradient, to rounding and to the
// differences of the second-derivative terms, of the G that the forward steps compute
// (each step's (t, h) held fixed, as the forward sensitivities hold them), so that it
// agrees with the family's forward sensitivities far below the tolerance.
//
// The forward pass is the ordinary solve; it lands on every data time and keeps each
// step's (t, h) and, every `checkpoint_steps` steps, the state at a step's start. The
// backward pass goes through the steps from the last: a segment between checkpoints is
// replayed to recover its states, and each step is replayed once more for its stages and
// W before the transpose of its linearisation carries lambda = dG/dy back over it:
//   xi_i = W^-T kbar_i, from the last stage to the first, and from each xi_i
//   ybar += J(U_i)^T xi_i + (d/dy J(y) k_i)^T xi_i [+ h d_i (d/dy f_t)^T xi_i],
//   kbar_j += a_ij J(U_i)^T xi_i + (C_ij / h) M^T xi_i,   pbar += f_p(U_i)^T xi_i + ...
// with U_i the stage values and kbar_i = b_i lambda to start with. G's running integral
// is integrated as one more component q' = g by the same stages (its own W row is
// 1/(h gamma) - [g_y 0]), so that its gradient is as consistent as the rest. A DAE's
// consistent start is differentiated too: y0's algebraic components follow p and the
// differential ones as the forward sensitivities' s0 does (index 1 and Hessenberg index 2).
#pragma once

#include <string>

#include "daekit/numerics/controller.hpp"
#include "daekit/output_sink.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/numerics/step_end.hpp"
#include "daekit/kits/rosenbrock/tableau.hpp"

namespace daekit {

struct RosenbrockAdjointSettings {
  std::string controller = "predictive";
  ControllerLimits limits;
  // A checkpoint every this many steps: 1 keeps every step's start (memory n per step),
  // k > 1 keeps one in k and replays the others (one more step evaluation per step).
  int checkpoint_steps = 1;
};

// Why this solver's adjoint does not take the problem ("" when it does).
std::string rosenbrock_adjoint_refusal(ProblemView& problem, const tableaus::RosenbrockTableau& tableau,
                                       int max_jacobian_age);

// The forward solve (output to `sink` as usual) and the gradient into request.gradient,
// request.gradient_y0 and request.functional_value.
SolveOutcome rosenbrock_adjoint_solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                                      const tableaus::RosenbrockTableau& tableau,
                                      const RosenbrockAdjointSettings& settings);

}  // namespace daekit
