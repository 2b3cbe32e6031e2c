// The gradient of a functional (SolveRequest::adjoint) by CVODES' adjoint module: the
// forward solve with checkpoints (CVodeF, Hermite interpolation between them), then
// lambda' = -J^T lambda - g_y backward from lambda(T) = phi_y with a jump r_k dr_k/dy at
// every data time, and the quadrature mu' = -(f_p^T lambda + g_p) beside it, so that
// dG/dp = mu(t0) + phi_p + sum r_k dr_k/dp and dG/dy0 = lambda(t0). ODEs (M = I) without
// events; a problem with events is refused.
#pragma once

#include <daekit/sdk/solver.hpp>

#include "options.hpp"

namespace daekit::plugins {

SolveOutcome cvode_adjoint_solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                                 const CvodeOptions& options);

}  // namespace daekit::plugins
