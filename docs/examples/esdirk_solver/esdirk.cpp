// Two solvers from one library, one stepper and two tableaus (esdirk_tableaus.hpp): the
// core's solve_one_step wires the shared pieces (mass matrix, initial values, iteration
// matrix, error norm, initial step, the driver with its events, constraints and dense
// output) around the stepper; the PI controller steers h.
#include <daekit/numerics/newton_tolerance.hpp>
#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/sdk/export_solver.hpp>

#include "esdirk_stepper.hpp"

namespace {

template <const esdirk::Tableau& tableau>
class Esdirk : public daekit::Solver {
 public:
  static daekit::SolverDescription describe() {
    daekit::SolverDescription d;
    d.capabilities.max_mass = daekit::MassKind::constant;
    d.capabilities.max_dae_index = 1;  // stiffly accurate: the stages satisfy the constraints
    d.capabilities.dense_output = true;
    d.capabilities.keep_dense = true;
    d.capabilities.order = tableau.order;
    return d;
  }

  daekit::SolveOutcome solve(daekit::ProblemView& problem, const daekit::SolveRequest& request,
                             daekit::OutputSink& sink) override {
    using namespace daekit;
    // Newton stops well below the error test (RADAU's rule, in units of the error norm).
    const double kappa = newton_tolerance(request.rtol.minCoeff(), 0.03);
    return solve_one_step(
        problem, request, sink, tableau.order, /*allow_sparse=*/true,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm) {
          return std::make_unique<esdirk::Stepper>(tableau, problem, mass, matrix, norm, kappa);
        },
        [](const esdirk::Stepper& stepper) { return std::make_unique<PIController>(stepper.error_order()); });
  }
};

using Esdirk3 = Esdirk<esdirk::esdirk3>;
using Esdirk1 = Esdirk<esdirk::esdirk1>;

}  // namespace

DAEKIT_EXPORT_SOLVER(Esdirk3, esdirk3, "1.0.0", "ESDIRK3(2)4L[2]SA: L-stable order-3 ESDIRK, Newton (example)")
DAEKIT_EXPORT_SOLVER(Esdirk1, esdirk1, "1.0.0", "implicit Euler with a trapezoidal error estimate (example)")
