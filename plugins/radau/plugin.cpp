// The Radau IIA plugin: `radau5`, the three-stage, order-5 method with the
// structure of Hairer & Wanner's RADAU5 (core Radau5Stepper), and `radauiia`, the
// same family with 3, 5 or 7 stages chosen during the run (core RadauIIAStepper).
#include <daekit/numerics/newton_krylov.hpp>
#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/kits/radau/radau5_stepper.hpp>
#include <daekit/kits/radau/radau_iia_stepper.hpp>
#include <daekit/sdk/export_solver.hpp>
#include <daekit/sdk/option_table.hpp>

namespace {

using namespace daekit;

// Both: constant mass matrices, DAEs up to index 3, dense output from the collocation polynomial,
// sparse LUs (real and complex) in the problem's pattern when it gives one.
SolverDescription radau_description(int order) {
  SolverDescription d;
  d.capabilities.sparse = true;
  d.capabilities.max_mass = MassKind::constant;
  d.capabilities.max_dae_index = 3;
  d.capabilities.dense_output = true;
  d.capabilities.order = order;
  d.capabilities.events = true;
  d.capabilities.event_sampling = true;
  d.capabilities.constraints = true;
  d.capabilities.keep_dense = true;
  d.capabilities.step_notification = true;
  d.capabilities.mass_storage = true;
  return d;
}

// Sparse LUs in the problem's pattern unless dense ones are asked for; sparse ones asked
// for a problem without a pattern are refused (the refusal, else nothing).
std::optional<SolveOutcome> choose_lus(bool ask_sparse, bool ask_dense, const ProblemView& problem,
                                       const SolveRequest& request, bool* sparse) {
  const bool has_pattern = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  if (ask_sparse && !has_pattern)
    return SolveOutcome{Status::invalid_input, "linear_solver=sparse needs a problem with a Jacobian pattern", request.t0};
  *sparse = !ask_dense && has_pattern;
  return std::nullopt;
}

const std::vector<std::string>& radau_direct_solvers() {
  static const std::vector<std::string> choices = {"auto", "dense", "sparse"};
  return choices;
}

// radau5's linear algebra, listed beside its stepper's settings: LUs (dense, or sparse in
// the problem's pattern), or a Krylov method for the real and complex systems.
OptionTable<Radau5Settings>& with_linear_algebra(OptionTable<Radau5Settings>& table) {
  return table.listed(iteration_matrix_options())
      .listed(krylov_option_rows(radau_direct_solvers(),
                                 "sparse LUs (real and complex) in the problem's Jacobian pattern when it gives one, "
                                 "else dense; with krylov the complex system is solved as a real one of twice the "
                                 "size, not on DAEs of index 2 or 3"));
}

// radauiia's: LUs only. With a Krylov method its answers at 5 and 7 stages were 4-9
// times further from the reference than its LUs' (brusselator N = 16, rtol 1e-6: 14.9
// to 29.4 units of the tolerance against 3.4, whatever the linear tolerance; at 3
// stages as accurate, radau5's method): not offered until that is understood.
enum class LinearSolver { automatic, dense, sparse };
struct RadauIIAOptions : RadauIIASettings {
  LinearSolver linear_solver = LinearSolver::automatic;
};

const OptionTable<Radau5Settings>& radau5_options() {
  static OptionTable<Radau5Settings> table = [] {
    OptionTable<Radau5Settings> t;
    t.integer("max_newton", &Radau5Settings::max_newton, at_least(1), "Newton iterations per step (RADAU5's NIT)")
        .real("jacobian_reuse", &Radau5Settings::jacobian_reuse, at_least(0),
              "keep the Jacobian after a step whose Newton contraction rate was below this (RADAU5's THET)")
        .real("safety", &Radau5Settings::safety, {0, 1, true, false}, "safety factor of the step-size controller")
        .real("fac_min", &Radau5Settings::fac_min, {0, 1, true, true}, "smallest step-size ratio h_new/h")
        .real("fac_max", &Radau5Settings::fac_max, above(1), "largest step-size ratio h_new/h")
        .real("keep_step_low", &Radau5Settings::keep_step_low, {0, 1, true, false},
              "keep h and the factorisations when h_new/h is in [keep_step_low, keep_step_high] (RADAU5's QUOT1)")
        .real("keep_step_high", &Radau5Settings::keep_step_high, at_least(1),
              "upper end of that band (RADAU5's QUOT2; Hairer suggests 0.99 and 2 for large full systems)");
    return with_linear_algebra(t);
  }();
  return table;
}

// The linear algebra read: LUs (dense or sparse), or a Krylov method (linear_solver=krylov,
// or auto on a problem built for it); sensitivities and DAEs of index 2 and 3 take the
// LUs. The refusal, if any.
std::optional<SolveOutcome> radau5_linear_algebra(ProblemView& problem, const SolveRequest& request,
                                                  KrylovOptions& linear, bool* sparse) {
  std::string why;
  if (!read_krylov_options(problem, request, radau_direct_solvers(), linear, &why))
    return SolveOutcome{Status::invalid_input, why, request.t0};
  const bool asked = request.extra.count("linear_solver") && request.extra.at("linear_solver") != "auto";
  // Components of index 2 and 3 are weighted by h and h^2 in the error test: a Krylov
  // residual measured in those weights let andrews (index 3) end at scd -4.0 with every
  // step accepted (LUs: 5.1), and fekete (index 2) ran out of steps. Not yet, then.
  int index = 0;
  for (Eigen::Index i = 0; i < problem.size(); ++i) index = std::max(index, problem.index_of(i));
  const std::string not_yet = request.wants_sensitivities() ? "with sensitivities"
                              : index >= 2 ? "on DAEs of index " + std::to_string(index) : "";
  if (linear.krylov() && !not_yet.empty()) {
    if (asked)
      return SolveOutcome{Status::unsupported_problem,
                          "radau5: linear_solver=krylov " + not_yet + ": not yet; use the direct LUs",
                          request.t0};
    linear.linear_solver = "auto";  // auto: the LUs
  }
  if (linear.krylov() && Preconditioner::resolve(linear.preconditioner, problem, &why) == PreconditionerKind::automatic)
    return SolveOutcome{Status::invalid_input, why, request.t0};
  return choose_lus(linear.linear_solver == "sparse", linear.krylov() || linear.linear_solver == "dense", problem,
                    request, sparse);
}

// The output's s(t): the stepper's collocation polynomial of s, where sensitivities are asked for.
template <class Stepper>
void output_sensitivities(const SolveRequest& request, OutputSink& sink, const Stepper& stepper) {
  if (!request.wants_sensitivities()) return;
  sink.sensitivities_from([&stepper](double t, Eigen::MatrixXd& out) {
    stepper.interpolate_sensitivities(t, out);
    return true;
  });
}

// With linear_solver=krylov: the Krylov method (owned by the solve) behind the stepper's systems.
void attach_krylov(Radau5Stepper& stepper, std::optional<NewtonKrylov>& krylov, ProblemView& problem,
                   const SolveRequest& request, const KrylovOptions& linear, const MassMatrix& mass) {
  if (!linear.krylov()) return;
  std::string why;  // resolved by radau5_linear_algebra: the preconditioner can be had
  krylov.emplace();
  krylov->setup(problem, request, linear, &mass, &why);
  stepper.solve_stages_by_krylov(&*krylov);
}

class Radau5Solver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d = radau_description(5);
    d.capabilities.sensitivities = true;  // ODEs with a constant M (kit/radau5_sensitivities.cpp)
    d.options = radau5_options().describe();
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    Radau5Settings settings;
    KrylovOptions linear;
    bool sparse = false;
    std::string error;
    if (!radau5_options().read(request, settings, &error)) return {Status::invalid_input, error, request.t0};
    if (auto refused = radau5_linear_algebra(problem, request, linear, &sparse)) return *refused;
    if (request.wants_sensitivities())
      if (const std::string why = Radau5Sensitivities(problem, request).refused(); !why.empty())
        return {Status::unsupported_problem, why, request.t0};
    std::optional<NewtonKrylov> krylov;
    return solve_one_step(
        problem, request, sink, 5, sparse,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm&) {
          auto stepper = std::make_unique<Radau5Stepper>(problem, request, mass, matrix, settings);
          output_sensitivities(request, sink, *stepper);
          attach_krylov(*stepper, krylov, problem, request, linear, mass);
          return stepper;
        },
        [](const Radau5Stepper& stepper) { return std::make_unique<Radau5Controller>(stepper); });
  }
};


// The defaults listed are those of small problems; RadauIIASettings::for_size gives the rest.
const OptionTable<RadauIIAOptions>& radauiia_options() {
  static OptionTable<RadauIIAOptions> table = [] {
    OptionTable<RadauIIAOptions> t;
    t.integer("min_stages", &RadauIIAOptions::min_stages, between(3, 7), "fewest stages (3, 5 or 7: orders 5, 9, 13)")
        .integer("max_stages", &RadauIIAOptions::max_stages, between(3, 7), "most stages")
        .integer("start_stages", &RadauIIAOptions::start_stages, between(3, 7), "stages of the first step")
        .integer("max_newton", &RadauIIAOptions::max_newton, at_least(1),
                 "Newton iterations for 3 stages (2.5 more per extra stage)")
        .real("jacobian_reuse", &RadauIIAOptions::jacobian_reuse, at_least(0),
              "keep the Jacobian after a step whose Newton rate was below this (0.03 from n = 50 on)")
        .real("raise_rate", &RadauIIAOptions::raise_rate, at_least(0),
              "raise the order after a step whose Newton rate is below this (RADAU's VITU)")
        .real("raise_rate_fresh", &RadauIIAOptions::raise_rate_fresh, at_least(0),
              "... or below this when the step evaluated its Jacobian at its start (the rate then reflects h, not "
              "J's age)")
        .real("lower_rate", &RadauIIAOptions::lower_rate, at_least(0),
              "lower the order when Newton's rate is above this (RADAU's VITD)")
        .real("keep_step_low", &RadauIIAOptions::keep_step_low, {0, 1, true, false},
              "keep h and the factorisations when h_new/h is in [keep_step_low, keep_step_high] (0.99 from n = 50 on)")
        .real("keep_step_high", &RadauIIAOptions::keep_step_high, at_least(1),
              "upper end of that band (2 from n = 50 on, as Hairer advises for large full systems)");
    return t
        .choice("linear_solver", &RadauIIAOptions::linear_solver,
                {{"auto", LinearSolver::automatic}, {"dense", LinearSolver::dense}, {"sparse", LinearSolver::sparse}},
                "auto: sparse LUs (real and complex) in the problem's Jacobian pattern when it gives one, else dense")
        .listed(iteration_matrix_options());
  }();
  return table;
}

// Radau IIA with 3, 5 and 7 stages, the order chosen during the run (RADAU's strategy).
class RadauIIASolver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d = radau_description(13);
    d.capabilities.sensitivities = true;  // ODEs and DAEs M y' = f with a constant M (kit/radau_iia_sensitivities.cpp)
    d.options = radauiia_options().describe();
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    RadauIIAOptions options;
    static_cast<RadauIIASettings&>(options) = RadauIIASettings::for_size(problem.size());
    std::string error;
    if (!radauiia_options().read(request, options, &error)) return {Status::invalid_input, error, request.t0};
    bool sparse = false;
    if (auto refused = choose_lus(options.linear_solver == LinearSolver::sparse,
                                  options.linear_solver == LinearSolver::dense, problem, request, &sparse))
      return *refused;
    const RadauIIASettings s = options;
    auto valid = [](int k) { return k == 3 || k == 5 || k == 7; };
    if (!valid(s.min_stages) || !valid(s.max_stages) || !valid(s.start_stages) || s.min_stages > s.max_stages ||
        s.start_stages < s.min_stages || s.start_stages > s.max_stages)
      return {Status::invalid_input,
              "radauiia needs stages of 3, 5 or 7 with min_stages <= start_stages <= max_stages", request.t0};
    if (request.wants_sensitivities())
      if (const std::string why = RadauIIASensitivities(problem, request).refused(); !why.empty())
        return {Status::unsupported_problem, why, request.t0};
    return solve_one_step(
        problem, request, sink, 2 * s.start_stages - 1, sparse,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm&) {
          auto stepper = std::make_unique<RadauIIAStepper>(problem, request, mass, matrix, s);
          output_sensitivities(request, sink, *stepper);
          return stepper;
        },
        [](const RadauIIAStepper& stepper) { return std::make_unique<RadauIIAController>(stepper); });
  }
};

}  // namespace

DAEKIT_EXPORT_SOLVER(Radau5Solver, radau5, "0.1.0",
                     "Radau IIA, 3 stages, order 5 (RADAU5's structure): stiff ODEs and DAEs up to index 3")
DAEKIT_EXPORT_SOLVER(RadauIIASolver, radauiia, "0.1.0",
                     "Radau IIA with 3/5/7 stages (orders 5/9/13), order chosen from Newton's convergence (RADAU)")
