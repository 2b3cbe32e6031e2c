// A Rosenbrock solver plugin for any tableau: wires the shared pieces of core/
// (mass matrix, iteration matrix, error norm, consistent initialisation,
// initial step, controller, driver) around the generic Rosenbrock step.
#pragma once

#include <daekit/numerics/consistency.hpp>
#include <daekit/numerics/controller.hpp>
#include <daekit/numerics/driver.hpp>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/initial_step.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/rosenbrock/stepper.hpp>
#include <daekit/sdk/solver.hpp>
#include <daekit/tableaus/rosenbrock_tableau.hpp>
#include <string>

namespace daekit::plugins {

template <const tableaus::RosenbrockTableau& Tableau>
class RosenbrockSolver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d;
    d.capabilities.max_mass = MassKind::constant;
    d.capabilities.max_dae_index = 2;
    d.capabilities.dense_output = Tableau.dense_rows > 0;
    d.capabilities.sparse = true;
    d.capabilities.order = Tableau.order;
    d.options = {
        {"controller", "choice:predictive|pi|i", "predictive",
         "step-size controller: Gustafsson's predictive (as RODAS), PI, or elementary"},
        {"safety", "real", "0.9", "safety factor of the step-size controller"},
        {"fac_min", "real", "0.2", "smallest step-size ratio h_new/h"},
        {"fac_max", "real", "6", "largest step-size ratio h_new/h"},
    };
    if (Tableau.w_method)
      d.options.push_back({"max_jacobian_age", "int", "1",
                           "keep a Jacobian for up to this many steps (a W-method keeps its order with an old one)"});
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    SolveOutcome out;
    out.t_reached = request.t0;
    Eigen::VectorXd y = request.y0;

    MassMatrix mass;
    if (mass.setup(problem, request.t0, y) != Eval::ok) {
      out.status = Status::evaluation_failure;
      out.message = problem.last_message();
      return out;
    }
    InitialisationOutcome init = initialise(problem, request, mass, y);
    if (init.status != Status::success) {
      out.status = init.status;
      out.message = init.message;
      return out;
    }

    const ErrorNorm norm = ErrorNorm::for_request(request, problem);
    IterationMatrix matrix;
    matrix.setup(problem, request, mass);
    const long max_age = request.extra_int("max_jacobian_age", 1);
    if (max_age < 1) {
      out.status = Status::invalid_input;
      out.message = "max_jacobian_age must be at least 1";
      return out;
    }
    RosenbrockStepper stepper(Tableau, problem, mass, matrix, norm, static_cast<int>(max_age));
    Eval e = stepper.start(request.t0, y);
    if (e != Eval::ok) {
      out.status = Status::evaluation_failure;
      out.message = "at t0: " + problem.last_message();
      return out;
    }

    double h0 = request.h0;
    if (h0 <= 0.0) {
      e = initial_step(problem, norm, mass, request.t0, y, stepper.f_start(), Tableau.order, request.hmax, &h0);
      if (e != Eval::ok) {
        out.status = Status::evaluation_failure;
        out.message = "choosing the initial step: " + problem.last_message();
        return out;
      }
    }

    ControllerLimits limits;
    limits.safety = request.extra_real("safety", limits.safety);
    limits.fac_min = request.extra_real("fac_min", limits.fac_min);
    limits.fac_max = request.extra_real("fac_max", limits.fac_max);
    if (!(limits.safety > 0.0 && limits.safety <= 1.0 && limits.fac_min > 0.0 && limits.fac_min < 1.0 &&
          limits.fac_max > 1.0)) {
      out.status = Status::invalid_input;
      out.message = "controller limits need 0 < safety <= 1, 0 < fac_min < 1 < fac_max";
      return out;
    }
    auto controller = make_controller(request.extra_text("controller", "predictive"), stepper.error_order(), limits);

    out = drive(stepper, problem, request, sink, *controller, h0, y);
    if (!init.message.empty() && is_success(out.status)) out.message = init.message;
    return out;
  }
};

}  // namespace daekit::plugins
