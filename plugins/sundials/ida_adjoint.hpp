// The gradient of a functional (SolveRequest::adjoint) by IDAS' adjoint module, for
// M y' = f with a constant M: ODEs and index-1 DAEs. The forward pass keeps checkpoints;
// backward, the adjoint DAE M^T lambda' = -J^T lambda - g_y with the quadrature
// mu' = -(f_p^T lambda + g_p), from lambda(T) made of phi_y and a jump at every data time.
// A DAE's jumps are projected onto the consistent variations: a term c s(t) becomes
// z^T M s(t) - nu^T f_p,alg, z solving B^T z = c with B made of M's differential rows and
// J's algebraic ones (index 1: B is non-singular), so that dG/dp = mu(t0) +
// lambda(t0)^T M dy0/dp + the jumps' p-terms, and dG/dy0 = M^T lambda(t0). Index 2 and
// more, residual-form problems, varying mass matrices and events are refused.
#pragma once

#include <daekit/sdk/solver.hpp>

#include "options.hpp"

namespace daekit::plugins {

SolveOutcome ida_adjoint_solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                               const IdaOptions& options);

}  // namespace daekit::plugins
