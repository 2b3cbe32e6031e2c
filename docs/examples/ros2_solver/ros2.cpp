// A new solver out of the tree: the two-stage, second-order Rosenbrock method
// ROS2 (Verwer et al., SIAM J. Sci. Comput. 20, 1999; gamma = 1 + 1/sqrt 2) with
// a first-order embedded estimate, written as a tableau for the generic
// Rosenbrock step of daekit's Rosenbrock kit, and run with the core's shared pieces
// (solve_one_step: mass matrix, initial values, iteration matrix, error norm,
// initial step, driver) and its PI controller.
#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/kits/rosenbrock/stepper.hpp>
#include <daekit/sdk/export_solver.hpp>

namespace {

// Coefficients in the transformed form of daekit/kits/rosenbrock/tableau.hpp
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
    return solve_one_step(
        problem, request, sink, ros2_tableau.order, /*allow_sparse=*/true,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm) {
          return std::make_unique<RosenbrockStepper>(ros2_tableau, problem, mass, matrix, norm);
        },
        [](const RosenbrockStepper& stepper) { return std::make_unique<PIController>(stepper.error_order()); });
  }
};

}  // namespace

DAEKIT_EXPORT_SOLVER(Ros2, ros2, "1.0.0", "ROS2: two-stage order-2 Rosenbrock-W method (out-of-tree example)")
