// The Radau IIA plugin: `radau5`, the three-stage, order-5 method with the
// structure of Hairer & Wanner's RADAU5, on the core's Radau5Stepper.
#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/radau/radau5_stepper.hpp>
#include <daekit/sdk/export_solver.hpp>

namespace {

using namespace daekit;

class Radau5Solver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d;
    d.capabilities.max_mass = MassKind::constant;
    d.capabilities.max_dae_index = 3;
    d.capabilities.dense_output = true;
    d.capabilities.order = 5;
    d.options = {
        {"max_newton", "int", "7", "Newton iterations per step (RADAU5's NIT)"},
        {"jacobian_reuse", "real", "0.001",
         "keep the Jacobian after a step whose Newton contraction rate was below this (RADAU5's THET)"},
        {"safety", "real", "0.9", "safety factor of the step-size controller"},
        {"fac_min", "real", "0.2", "smallest step-size ratio h_new/h"},
        {"fac_max", "real", "8", "largest step-size ratio h_new/h"},
    };
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    Radau5Settings settings;
    settings.max_newton = static_cast<int>(request.extra_int("max_newton", settings.max_newton));
    settings.jacobian_reuse = request.extra_real("jacobian_reuse", settings.jacobian_reuse);
    settings.safety = request.extra_real("safety", settings.safety);
    settings.fac_min = request.extra_real("fac_min", settings.fac_min);
    settings.fac_max = request.extra_real("fac_max", settings.fac_max);
    if (settings.max_newton < 1 || !(settings.safety > 0 && settings.safety <= 1) ||
        !(settings.fac_min > 0 && settings.fac_min < 1 && settings.fac_max > 1))
      return {Status::invalid_input, "radau5 needs max_newton >= 1, 0 < safety <= 1, 0 < fac_min < 1 < fac_max",
              request.t0};
    // Dense linear algebra only: the complex stage system is factorised densely.
    return solve_one_step(
        problem, request, sink, 5, /*allow_sparse=*/false,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm&) {
          return std::make_unique<Radau5Stepper>(problem, request, mass, matrix, settings);
        },
        [](const Radau5Stepper& stepper) { return std::make_unique<Radau5Controller>(stepper); });
  }
};

}  // namespace

DAEKIT_EXPORT_SOLVER(Radau5Solver, radau5, "0.1.0",
                     "Radau IIA, 3 stages, order 5 (RADAU5's structure): stiff ODEs and DAEs up to index 3")
