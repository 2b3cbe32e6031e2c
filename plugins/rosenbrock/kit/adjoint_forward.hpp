// The forward pass of the Rosenbrock adjoint (kits/rosenbrock/adjoint.hpp): the ordinary
// solve, landing on every data time, that records what the backward pass replays: each
// accepted step's (t, h), the state at a step's start every `checkpoint_steps` steps and
// wherever something other than the step made it (a projection onto a sign constraint, an
// event's reset), and at each event the state before it and the linear map of its jump.
#pragma once

#include <Eigen/Core>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "daekit/kits/rosenbrock/adjoint.hpp"

namespace daekit::rosenbrock_adjoint {

// An event after step `step`, at t (inside that step, or its end for a time event): the
// state y- there (the step's continuous extension) and the jump of a tangent,
// s+ = jump [s-; dp], n x (n + np) (numerics/sensitivity_jump.hpp, made consistent for a DAE).
struct EventRecord {
  std::size_t step = 0;
  double t = 0;
  Eigen::VectorXd y_minus;
  Eigen::MatrixXd jump;
};

struct StepRecord {
  std::vector<double> t, h;                             // each accepted step's start and size
  std::map<std::size_t, Eigen::VectorXd> checkpoints;  // step index -> y at its start
  std::set<std::size_t> moved;                          // steps whose start a projection moved
  std::map<std::size_t, EventRecord> events;           // by the step they end
  Eigen::VectorXd y_end;
};

// The forward solve with output to `sink`; what it reached, and the record.
SolveOutcome record_forward_pass(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                                 const tableaus::RosenbrockTableau& tableau, const RosenbrockAdjointSettings& settings,
                                 StepRecord& record);

}  // namespace daekit::rosenbrock_adjoint
