// A Rosenbrock solver plugin for any tableau: the generic Rosenbrock step with the
// shared pieces of core/ (solve_one_step) and a choice of step-size controller.
#pragma once

#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/kits/rosenbrock/stepper.hpp>
#include <daekit/sdk/solver.hpp>
#include <daekit/kits/rosenbrock/tableau.hpp>
#include <string>

namespace daekit::plugins {

template <const tableaus::RosenbrockTableau& Tableau>
class RosenbrockSolver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d;
    d.capabilities.max_mass = MassKind::constant;
    d.capabilities.max_dae_index = Tableau.max_dae_index;
    d.capabilities.dense_output = Tableau.dense_rows > 0;
    d.capabilities.sparse = true;
    d.capabilities.order = Tableau.order;
    d.capabilities.events = true;
    d.capabilities.event_sampling = true;
    d.capabilities.constraints = true;
    d.capabilities.keep_dense = true;
    d.capabilities.step_notification = true;
    d.capabilities.mass_storage = true;
    d.options = {
        {"controller", "choice:predictive|pi|i", "predictive",
         "step-size controller: Gustafsson's predictive (as RODAS), PI, or elementary"},
        {"safety", "real", "0.9", "safety factor of the step-size controller"},
        {"fac_min", "real", "0.2", "smallest step-size ratio h_new/h"},
        {"fac_max", "real", "6", "largest step-size ratio h_new/h"},
    };
    for (auto& o : iteration_matrix_options()) d.options.push_back(std::move(o));
    if (Tableau.w_method)
      d.options.push_back({"max_jacobian_age", "int", "1",
                           "keep a Jacobian for up to this many steps (a W-method keeps its order with an old one)"});
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    ControllerLimits limits;
    limits.safety = request.extra_real("safety", limits.safety);
    limits.fac_min = request.extra_real("fac_min", limits.fac_min);
    limits.fac_max = request.extra_real("fac_max", limits.fac_max);
    if (!(limits.safety > 0.0 && limits.safety <= 1.0 && limits.fac_min > 0.0 && limits.fac_min < 1.0 &&
          limits.fac_max > 1.0))
      return {Status::invalid_input, "controller limits need 0 < safety <= 1, 0 < fac_min < 1 < fac_max", request.t0};
    const long max_age = request.extra_int("max_jacobian_age", 1);
    if (max_age < 1) return {Status::invalid_input, "max_jacobian_age must be at least 1", request.t0};
    const std::string controller = request.extra_text("controller", "predictive");
    return solve_one_step(
        problem, request, sink, Tableau.order, /*allow_sparse=*/true,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm) {
          return std::make_unique<RosenbrockStepper>(Tableau, problem, mass, matrix, norm, static_cast<int>(max_age));
        },
        [&](const RosenbrockStepper& stepper) { return make_controller(controller, stepper.error_order(), limits); });
  }
};

}  // namespace daekit::plugins
