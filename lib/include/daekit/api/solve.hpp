// One solve and its Solution: status, message, statistics, the output points, the
// events, the accuracy against the problem's reference when it has one, and y(t) at any
// t of the span when the solver kept its dense output (options.dense).
//
//   daekit::SolveOptions options;
//   options.rtol = options.atol = 1e-8;
//   options.dense = true;
//   daekit::Solution s = daekit::solve(problem, solver, options);
//   if (s.success()) std::vector<double> y = s(0.5);
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daekit/api/handles.hpp"
#include "daekit/api/run_setup.hpp"
#include "daekit/scoring.hpp"
#include "daekit/status.hpp"

namespace daekit {

// The command's run settings, with output at every accepted step by default (a program
// usually wants the trajectory); a non-empty saveat means output at those times instead.
struct SolveOptions : api::RunSettings {
  SolveOptions() { output = DK_OUTPUT_EVERY_STEP; }
};

// The output points (t, row-major y, events and the limits at resets) and the outcome.
class Solution : public api::Trajectory {
 public:
  Status status = Status::internal_error;
  std::string message;
  dk_stats stats{};
  double t0 = 0, tend = 0, t_reached = 0;
  std::string problem, solver;
  double rtol = 0;
  std::vector<double> atol;  // one value, or one per component
  std::string atol_text;     // as the command prints it
  // Against the problem's reference at the end (stored, or its exact solution at tend).
  std::optional<Accuracy> accuracy;
  std::string reference_used, reference_source;
  // With options.adjoint (a solver with adjoints): dG/dp for every real parameter (in the
  // problem's order, y0's dependence on p included), dG/dy0 and G.
  std::vector<double> gradient, gradient_y0;
  std::optional<double> functional_value;

  bool success() const { return is_success(status); }
  std::string status_name() const { return std::string(daekit::status_name(status)); }
  std::size_t size() const { return t.size(); }
  // Row k of y (n values).
  const double* point(std::size_t k) const { return y.data() + k * n; }

  // Whether y(t) is available: the solve asked for dense output and the solver keeps it.
  bool has_dense() const { return dense_ != nullptr; }
  // y(t) for t between t0 and t_reached, from the solver's own dense output.
  // std::logic_error without dense output, std::out_of_range outside the span.
  std::vector<double> operator()(double t) const;
  void at(double t, double* y_out) const;

 private:
  friend Solution solve(const ProblemHandle&, const SolverHandle&, const SolveOptions&);
  std::shared_ptr<const loader::SolverInstance> dense_;
};

// Runs in this process. Bad settings (tolerances, options, initial values) throw
// UsageError, a problem beyond the solver's capabilities UnsupportedProblem; everything
// the solver meets is the Solution's status. A result the solver could not have
// computed (success before tend, non-finite values) is internal_error, never passed on.
Solution solve(const ProblemHandle& problem, const SolverHandle& solver, const SolveOptions& options = {});

}  // namespace daekit
