// A new solver out of the tree: the two-stage, second-order Rosenbrock method
// ROS2 (Verwer et al., SIAM J. Sci. Comput. 20, 1999; gamma = 1 + 1/sqrt 2) with
// a first-order embedded estimate, written as a tableau for the generic
// Rosenbrock step of daekit's core, and wired up with the core's shared pieces
// (mass matrix, iteration matrix, error norm, initial step, controller, driver).
#include <daekit/numerics/consistency.hpp>
#include <daekit/numerics/controller.hpp>
#include <daekit/numerics/driver.hpp>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/initial_step.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/rosenbrock/stepper.hpp>
#include <daekit/sdk/export_solver.hpp>

namespace {

// Coefficients in the transformed form of daekit/tableaus/rosenbrock_tableau.hpp
// (values as in OrdinaryDiffEq.jl's ROS2 tableau).
constexpr daekit::tableaus::RosenbrockTableau ros2_tableau = {
    "ros2", "Verwer, Spee, Blom & Hundsdorfer, SIAM J. Sci. Comput. 20 (1999)",
    2, 2, 1, 0, 2, true,
    1.7071067811865475,
    {{0, 0}, {0.585786437626905, 0}},
    {{0, 0}, {-1.17157287525381, 0}},
    {0, 1},
    {1.7071067811865475, -1.7071067811865475},
    {0.8786796564403574, 0.2928932188134525},
    {0.2928932188134525, 0.2928932188134525},
    0,
    {},
};

class Ros2 : public daekit::Solver {
 public:
  static daekit::SolverDescription describe() {
    daekit::SolverDescription d;
    d.capabilities.max_mass = daekit::MassKind::constant;
    d.capabilities.max_dae_index = 1;
    d.capabilities.dense_output = true;
    d.capabilities.order = 2;
    return d;
  }

  daekit::SolveOutcome solve(daekit::ProblemView& problem, const daekit::SolveRequest& request,
                             daekit::OutputSink& sink) override {
    using namespace daekit;
    Eigen::VectorXd y = request.y0;
    MassMatrix mass;
    if (mass.setup(problem, request.t0, y) != Eval::ok) return {Status::evaluation_failure, problem.last_message(), request.t0};
    InitialisationOutcome init = initialise(problem, request, mass, y);
    if (init.status != Status::success) return {init.status, init.message, request.t0};
    const ErrorNorm norm = ErrorNorm::for_request(request, problem);
    IterationMatrix matrix;
    matrix.setup(problem, request, mass);
    RosenbrockStepper stepper(ros2_tableau, problem, mass, matrix, norm);
    if (stepper.start(request.t0, y) != Eval::ok) return {Status::evaluation_failure, problem.last_message(), request.t0};
    double h0 = request.h0;
    if (h0 <= 0 && initial_step(problem, norm, mass, request.t0, y, stepper.f_start(), 2, request.hmax, &h0) != Eval::ok)
      return {Status::evaluation_failure, problem.last_message(), request.t0};
    PIController controller(stepper.error_order());
    return drive(stepper, problem, request, sink, controller, h0, y);
  }
};

}  // namespace

DAEKIT_EXPORT_SOLVER(Ros2, ros2, "1.0.0", "ROS2: two-stage order-2 Rosenbrock-W method (out-of-tree example)")
