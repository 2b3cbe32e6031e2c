#include "daekit/api/solve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace daekit {

void Solution::at(double t_query, double* y_out) const {
  if (!dense_)
    throw std::logic_error("solution of '" + solver + "' on '" + problem + "' has no dense output" +
                           " (solve with options.dense = true, with a solver that keeps it)");
  const double dir = tend >= t0 ? 1.0 : -1.0;
  if (!(dir * (t_query - t0) >= 0.0 && dir * (t_query - t_reached) <= 0.0) || !dense_->dense(t_query, y_out))
    throw std::out_of_range("t = " + api::format_number(t_query) + " lies outside the solved span [" + api::format_number(t0) + ", " +
                            api::format_number(t_reached) + "]");
}

std::vector<double> Solution::operator()(double t_query) const {
  std::vector<double> out(n);
  at(t_query, out.data());
  return out;
}

Solution solve(const ProblemHandle& problem, const SolverHandle& solver, const SolveOptions& options) {
  if (!problem.valid()) throw UsageError("no problem given");
  const std::shared_ptr<loader::SolverInstance> instance = solver.instantiate();
  const loader::ProblemInstance& p = problem.instance();
  const dk_problem_info& info = p.info();

  api::RunSettings settings = options;
  if (!settings.saveat.empty()) settings.output = DK_OUTPUT_SAVEAT;
  const double run_tend = settings.tend ? *settings.tend : info.tend;
  const bool want_reference = api::has_reference_at_time(p, run_tend);
  // Scoring needs the point at tend; asked only for it, it leaves the output again.
  bool reference_time_added = false;
  if (settings.output == DK_OUTPUT_SAVEAT && want_reference &&
      std::find(settings.saveat.begin(), settings.saveat.end(), run_tend) == settings.saveat.end()) {
    settings.saveat.push_back(run_tend);
    reference_time_added = true;
  }
  const api::PreparedRun prepared(p, *instance, settings);

  Solution s;
  const dk_result result =
      api::solve_checked(p, *instance, prepared.options(), s, true, &prepared.variables(), settings.interrupt);
  const dk_solve_options& o = prepared.options();
  s.status = static_cast<Status>(result.status);
  s.message = result.message;
  if (!prepared.functional_error().empty()) s.message += " (" + prepared.functional_error() + ")";
  if (settings.adjoint && s.status == Status::success) {
    s.gradient = prepared.total_gradient();
    s.gradient_y0 = prepared.gradient_y0();
    s.functional_value = prepared.functional_value();
  }
  s.stats = result.stats;
  s.t0 = o.t0;
  s.tend = o.tend;
  s.t_reached = std::isfinite(result.t_reached) ? result.t_reached : o.t0;
  s.problem = info.name;
  s.solver = instance->info().name;
  s.rtol = prepared.rtol();
  s.atol = prepared.atols();
  s.atol_text = prepared.atol_text();
  if (want_reference && s.status == Status::success && !s.t.empty() && s.t.back() == o.tend) {
    s.accuracy = api::final_accuracy(p, prepared, o.tend, s.point(s.t.size() - 1), &s.reference_used);
  } else if (s.status == Status::stopped_by_event && api::has_reference_at_time(p, s.t_reached)) {
    // A terminal event ends the run before tend: scored where it ended, against the exact
    // solution there, from the last point at that time (an output point, else the event's).
    const double* y_end = nullptr;
    if (!s.t.empty() && s.t.back() == s.t_reached) y_end = s.point(s.t.size() - 1);
    else if (!s.marked_t.empty() && s.marked_t.back() == s.t_reached) y_end = s.marked_y.data() + (s.marked_t.size() - 1) * s.n;
    if (y_end) s.accuracy = api::final_accuracy(p, prepared, s.t_reached, y_end, &s.reference_used);
  }
  if (s.accuracy) s.reference_source = info.reference_source ? info.reference_source : "";
  if (reference_time_added && !s.t.empty() && s.t.back() == run_tend) {
    s.t.pop_back();
    s.y.resize(s.y.size() - s.n);
    s.variables.resize(s.variables.size() - s.variable_names.size());
  }
  if (settings.dense && instance->keeps_dense() && result.status != DK_STATUS_INTERNAL_ERROR) s.dense_ = instance;
  return s;
}

}  // namespace daekit
