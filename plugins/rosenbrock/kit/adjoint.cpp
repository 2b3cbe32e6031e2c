#include "daekit/kits/rosenbrock/adjoint.hpp"

#include "adjoint_backward.hpp"
#include "adjoint_forward.hpp"

namespace daekit {

std::string rosenbrock_adjoint_refusal(ProblemView& problem, const tableaus::RosenbrockTableau& tableau,
                                       int max_jacobian_age) {
  const std::string solver(tableau.name);
  if (std::string why = adjoint_refusal(problem, solver, /*crosses_events=*/true); !why.empty()) return why;
  if (problem.nroots() > 0 && tableau.dense_rows == 0)
    return solver + "'s adjoint locates root events on a continuous extension of its own, which " + solver +
           " does not have (rodas5p, rodas4 and the other Rodas methods do)";
  if (max_jacobian_age > 1)
    return solver + "'s adjoint differentiates steps with a fresh Jacobian each: give max_jacobian_age=1";
  return "";
}

SolveOutcome rosenbrock_adjoint_solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                                      const tableaus::RosenbrockTableau& tableau,
                                      const RosenbrockAdjointSettings& settings) {
  rosenbrock_adjoint::StepRecord record;
  const SolveOutcome out = rosenbrock_adjoint::record_forward_pass(problem, request, sink, tableau, settings, record);
  if (!is_success(out.status)) return out;
  if (out.t_reached != request.tend)
    return {Status::unsupported_problem, "the solve ended before tend (an event stopped it): the adjoint "
            "differentiates a solve to tend", out.t_reached};
  FunctionalTerms terms(*request.adjoint, problem.size(), static_cast<Eigen::Index>(problem.np()));
  rosenbrock_adjoint::Backward backward(problem, request, tableau, terms);
  const SolveOutcome back = backward.run(record);
  if (back.status != Status::success)
    return {back.status, "in the backward (adjoint) pass: " + back.message, back.t_reached};
  return out;
}

}  // namespace daekit
