// `ida`: SUNDIALS IDA (variable-order BDF for F(t, y, y') = 0) behind the daekit
// solver interface.
#pragma once

#include <daekit/sdk/solver.hpp>

namespace daekit::plugins {

class IdaSolver : public Solver {
 public:
  static SolverDescription describe();
  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override;
};

// `cvode`: SUNDIALS CVODE (BDF in Nordsieck form) for y' = f(t, y).
class CvodeSolver : public Solver {
 public:
  static SolverDescription describe();
  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override;
};

}  // namespace daekit::plugins
