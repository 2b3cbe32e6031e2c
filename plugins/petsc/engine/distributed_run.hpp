// The petsc solver on a problem spread over MPI ranks (ABI 1.3 part E): one TS on the
// problem's communicator, stepped on every rank at once, the output gathered to rank 0,
// the only rank whose sink receives points (the host's rank 0 reports and writes them).
#pragma once

#include <daekit/output_sink.hpp>
#include <daekit/problem_view.hpp>
#include <daekit/sdk/solver.hpp>
#include <daekit/solve_request.hpp>

#include "../options.hpp"

namespace daekit::plugins::petsc {

// Called on every rank; the same outcome and statistics on all of them.
SolveOutcome solve_distributed(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                               const PetscTsOptions& options);

}  // namespace daekit::plugins::petsc
