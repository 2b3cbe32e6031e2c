// A Rosenbrock solver plugin for any tableau: the generic Rosenbrock step with the
// shared pieces of core/ (solve_one_step) and a choice of step-size controller.
#pragma once

#include <optional>

#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/kits/rosenbrock/adjoint.hpp>
#include <daekit/kits/rosenbrock/stepper.hpp>
#include <daekit/sdk/option_table.hpp>
#include <daekit/sdk/solver.hpp>
#include <daekit/kits/rosenbrock/tableau.hpp>
#include <string>

namespace daekit::plugins {

// The controller's limits (their defaults are the controller's), its kind, and how long a
// W-method may keep a Jacobian.
struct RosenbrockOptions : ControllerLimits {
  std::string controller = "predictive";
  int max_jacobian_age = 1;
  int checkpoint_steps = 1;
  KrylovOptions linear;  // linear_solver (auto, dense, sparse, krylov; arnoldi) and Krylov's options
  int arnoldi_dim = ArnoldiJacobian::Dimensions{}.max;
};

// linear_solver's choices besides Krylov's in this family (auto: sparse LUs where a pattern
// is declared); a Rosenbrock-Krylov method also has its own, arnoldi.
inline const std::vector<std::string>& rosenbrock_direct_solvers(bool krylov_method) {
  static const std::vector<std::string> direct = {"auto", "dense", "sparse"};
  static const std::vector<std::string> with_arnoldi = {"auto", "dense", "sparse", "arnoldi"};
  return krylov_method ? with_arnoldi : direct;
}

// A stage goes into the step's result as it is solved (a Newton correction is corrected by
// the next iteration): the stages are solved ten times tighter than a Newton correction.
constexpr double stage_tolerance_factor = 0.1;
// A Rosenbrock-Krylov method's projection of J grows until the first stage's residual is
// this fraction of eplifac (1e-4 of the error test at eplifac's default): outside the
// space the stages are explicit, and a looser space costs steps. Measured on the
// brusselator at rtol 1e-6 (docs/krylov.md): at N = 16, 2952 steps at 5e-3, 1410 at 1e-3,
// 893 at 1e-4, 955 at 1e-5, 1672 at 1e-7; the direct LU's 366.
constexpr double projection_tolerance_factor = 0.002;

inline OptionTable<RosenbrockOptions> rosenbrock_options(const tableaus::RosenbrockTableau& tableau) {
  std::vector<std::pair<std::string, std::string>> controllers;
  for (const auto& name : controller_names()) controllers.emplace_back(name, name);
  OptionTable<RosenbrockOptions> t;
  t.choice("controller", &RosenbrockOptions::controller, controllers,
           "step-size controller: Gustafsson's predictive (as RODAS), PI, or elementary")
      .real("safety", &RosenbrockOptions::safety, {0, 1, true, false}, "safety factor of the step-size controller")
      .real("fac_min", &RosenbrockOptions::fac_min, {0, 1, true, true}, "smallest step-size ratio h_new/h")
      .real("fac_max", &RosenbrockOptions::fac_max, above(1), "largest step-size ratio h_new/h")
      .integer("checkpoint_steps", &RosenbrockOptions::checkpoint_steps, at_least(1),
               "adjoint gradients: keep the state every this many steps and replay the others (1: keep every step)")
      .listed(iteration_matrix_options())
      .listed(krylov_option_rows(
          rosenbrock_direct_solvers(tableau.krylov_method),
          tableau.krylov_method ? "arnoldi: J replaced by its Arnoldi projection onto a Krylov space of f, the "
                                  "Rosenbrock-Krylov way, for y' = f without sensitivities; asked for by name only: "
                                  "the error test does not see the projection's error (docs/krylov.md)"
                                : ""));
  if (tableau.krylov_method)
    t.integer("arnoldi_dim", &RosenbrockOptions::arnoldi_dim, between(tableau.order, 1000),
              "with linear_solver=arnoldi: the largest Krylov space (the projection grows until the first stage "
              "meets its tolerance, from the method's order up to this)");
  if (tableau.w_method)
    t.integer("max_jacobian_age", &RosenbrockOptions::max_jacobian_age, at_least(1),
              "keep a Jacobian for up to this many steps (a W-method keeps its order with an old one)");
  return t;
}

// Said with every success of linear_solver=arnoldi: the embedded estimate compares two
// combinations of the same projected stages, and where the space misses stiff directions
// the stages' error in them is common to both. Measured (docs/krylov.md): pollu ended 23
// tolerances off at rtol 1e-5 and medakzo 1.5 digits below its LU at 1e-6, with success.
inline constexpr const char* arnoldi_caveat =
    "linear_solver=arnoldi: the error test does not see the projection's error, and on stiff kinetics the "
    "answer can be off by more than the tolerance (docs/krylov.md)";

// Why linear_solver=arnoldi cannot take this request ("" when it can).
inline std::string arnoldi_refusal(const ProblemView& problem, const SolveRequest& request) {
  if (problem.mass_kind() != MassKind::identity)
    return "linear_solver=arnoldi solves y' = f only, and this problem has a mass matrix: use linear_solver=krylov "
           "or the direct LUs";
  if (request.wants_sensitivities() || request.wants_adjoint())
    return "sensitivities and adjoints with linear_solver=arnoldi are not available: use the direct LUs";
  return "";
}

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
    // M y' = f with a constant M (kit/sensitivities.cpp); s's output by the method's
    // continuous extension, or cubic Hermite where it has none, as y's.
    d.capabilities.sensitivities = true;
    // The discrete adjoint of the step (kit/adjoint.cpp): ODEs and index-1 DAEs.
    d.capabilities.adjoint = true;
    d.options = options().describe();
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    RosenbrockOptions o;
    if (std::string why; !options().read(request, o, &why) ||
                         !read_krylov_options(problem, request, rosenbrock_direct_solvers(Tableau.krylov_method),
                                              o.linear, &why))
      return {Status::invalid_input, why, request.t0};
    const ControllerLimits limits = o;
    const std::string& linear = o.linear.linear_solver;
    if (linear == "sparse" && !(problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN))
      return {Status::invalid_input, "linear_solver=sparse needs a problem with a Jacobian pattern", request.t0};
    if (const std::string why = linear == "arnoldi" ? arnoldi_refusal(problem, request) : ""; !why.empty())
      return {Status::unsupported_problem, why, request.t0};
    std::optional<NewtonKrylov> krylov;
    if (o.linear.krylov()) {
      if (request.wants_adjoint())
        return {Status::unsupported_problem,
                "linear_solver=krylov with adjoints: not yet; use the direct LUs", request.t0};
      if (std::string why; Preconditioner::resolve(o.linear.preconditioner, problem, &why) ==
                           PreconditionerKind::automatic)
        return {Status::invalid_input, why, request.t0};
      krylov.emplace();
    }
    if (request.wants_adjoint()) {
      if (const std::string why = rosenbrock_adjoint_refusal(problem, Tableau, o.max_jacobian_age); !why.empty())
        return {Status::unsupported_problem, why, request.t0};
      return rosenbrock_adjoint_solve(problem, request, sink, Tableau, {o.controller, limits, o.checkpoint_steps});
    }
    std::optional<RosenbrockSensitivities> sensitivities;
    if (request.wants_sensitivities()) {
      sensitivities.emplace(problem, request, Tableau);
      if (const std::string why = sensitivities->refused(); !why.empty())
        return {Status::unsupported_problem, why, request.t0};
      sink.sensitivities_from([&](double t, Eigen::MatrixXd& s) {
        sensitivities->interpolate(t, s);
        return true;
      });
    }
    ArnoldiJacobian arnoldi;
    JacobianProduct product;
    const double stage_tolerance = stage_tolerance_factor * o.linear.settings.newton_fraction;
    SolveOutcome outcome = solve_one_step(
        problem, request, sink, Tableau.order, /*allow_sparse=*/linear != "dense",
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm) {
          auto stepper = std::make_unique<RosenbrockStepper>(Tableau, problem, mass, matrix, norm, o.max_jacobian_age);
          if (sensitivities) stepper->integrate_sensitivities(&*sensitivities);
          if (krylov) {
            std::string why;  // resolved above: the preconditioner can be had
            krylov->setup(problem, request, o.linear, &mass, &why);
            stepper->solve_stages_by_krylov(&*krylov, stage_tolerance);
          }
          if (linear == "arnoldi") {
            product.setup(problem, request, /*mass_form=*/true);
            arnoldi.setup(problem.size(), {Tableau.order, o.arnoldi_dim});
            problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_KRYLOV;
            if (product.by_differences()) problem.stats().jacobian_used = DK_JACOBIAN_FINITE_DIFFERENCE;
            stepper->project_jacobian(&arnoldi, &product,
                                      projection_tolerance_factor * o.linear.settings.newton_fraction);
          }
          return stepper;
        },
        [&](const RosenbrockStepper& stepper) { return make_controller(o.controller, stepper.error_order(), limits); });
    if (linear == "arnoldi" && is_success(outcome.status))
      outcome.message = outcome.message.empty() ? arnoldi_caveat : outcome.message + "; " + arnoldi_caveat;
    return outcome;
  }

 private:
  static const OptionTable<RosenbrockOptions>& options() {
    static const auto table = rosenbrock_options(Tableau);
    return table;
  }
};

}  // namespace daekit::plugins
