// The Radau IIA plugin: `radau5`, the three-stage, order-5 method with the
// structure of Hairer & Wanner's RADAU5 (core Radau5Stepper), and `radauiia`, the
// same family with 3, 5 or 7 stages chosen during the run (core RadauIIAStepper).
#include <daekit/numerics/one_step_solve.hpp>
#include <daekit/kits/radau/radau5_stepper.hpp>
#include <daekit/kits/radau/radau_iia_stepper.hpp>
#include <daekit/sdk/export_solver.hpp>

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

const OptionDesc linear_solver_option{
    "linear_solver", "choice:auto|dense|sparse", "auto",
    "auto: sparse LUs (real and complex) in the problem's Jacobian pattern when it gives one, else dense"};

// The options both solvers read alike: Newton's limit, when to keep J and h (with the LUs),
// and the linear algebra. Returns whether the LUs are sparse; error says what is invalid.
template <class Settings>
bool read_shared_options(const char* solver, const ProblemView& problem, const SolveRequest& request, Settings& s,
                         std::string& error) {
  s.max_newton = static_cast<int>(request.extra_int("max_newton", s.max_newton));
  s.jacobian_reuse = request.extra_real("jacobian_reuse", s.jacobian_reuse);
  s.keep_step_low = request.extra_real("keep_step_low", s.keep_step_low);
  s.keep_step_high = request.extra_real("keep_step_high", s.keep_step_high);
  if (s.max_newton < 1 || !(s.keep_step_low > 0.0 && s.keep_step_low <= 1.0 && s.keep_step_high >= 1.0))
    error = std::string(solver) + " needs max_newton >= 1 and 0 < keep_step_low <= 1 <= keep_step_high";
  const std::string choice = request.extra_text("linear_solver", "auto");
  const bool has_pattern = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  if (choice == "sparse" && !has_pattern) error = "linear_solver=sparse needs a problem with a Jacobian pattern";
  return choice != "dense" && has_pattern;
}

class Radau5Solver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d = radau_description(5);
    d.options = {
        {"max_newton", "int", "7", "Newton iterations per step (RADAU5's NIT)"},
        {"jacobian_reuse", "real", "0.001",
         "keep the Jacobian after a step whose Newton contraction rate was below this (RADAU5's THET)"},
        {"safety", "real", "0.9", "safety factor of the step-size controller"},
        {"fac_min", "real", "0.2", "smallest step-size ratio h_new/h"},
        {"fac_max", "real", "8", "largest step-size ratio h_new/h"},
        {"keep_step_low", "real", "1", "keep h and the factorisations when h_new/h is in [keep_step_low, keep_step_high] (RADAU5's QUOT1)"},
        {"keep_step_high", "real", "1.2", "upper end of that band (RADAU5's QUOT2; Hairer suggests 0.99 and 2 for large full systems)"},
        linear_solver_option,
    };
    for (auto& o : iteration_matrix_options()) d.options.push_back(std::move(o));
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    Radau5Settings settings;
    std::string error;
    const bool sparse = read_shared_options("radau5", problem, request, settings, error);
    if (!error.empty()) return {Status::invalid_input, error, request.t0};
    settings.safety = request.extra_real("safety", settings.safety);
    settings.fac_min = request.extra_real("fac_min", settings.fac_min);
    settings.fac_max = request.extra_real("fac_max", settings.fac_max);
    if (!(settings.safety > 0 && settings.safety <= 1) ||
        !(settings.fac_min > 0 && settings.fac_min < 1 && settings.fac_max > 1))
      return {Status::invalid_input, "radau5 needs 0 < safety <= 1 and 0 < fac_min < 1 < fac_max", request.t0};
    return solve_one_step(
        problem, request, sink, 5, sparse,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm&) {
          return std::make_unique<Radau5Stepper>(problem, request, mass, matrix, settings);
        },
        [](const Radau5Stepper& stepper) { return std::make_unique<Radau5Controller>(stepper); });
  }
};

// Radau IIA with 3, 5 and 7 stages, the order chosen during the run (RADAU's strategy).
class RadauIIASolver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d = radau_description(13);
    d.options = {
        {"min_stages", "int", "3", "fewest stages (3, 5 or 7: orders 5, 9, 13)"},
        {"max_stages", "int", "7", "most stages"},
        {"start_stages", "int", "3", "stages of the first step"},
        {"max_newton", "int", "7", "Newton iterations for 3 stages (2.5 more per extra stage)"},
        {"jacobian_reuse", "real", "0.01",
         "keep the Jacobian after a step whose Newton rate was below this (0.03 from n = 50 on)"},
        {"raise_rate", "real", "0.002", "raise the order after a step whose Newton rate is below this (RADAU's VITU)"},
        {"raise_rate_fresh", "real", "0.01",
         "... or below this when the step evaluated its Jacobian at its start (the rate then reflects h, not J's age)"},
        {"lower_rate", "real", "0.8", "lower the order when Newton's rate is above this (RADAU's VITD)"},
        {"keep_step_low", "real", "1",
         "keep h and the factorisations when h_new/h is in [keep_step_low, keep_step_high] (0.99 from n = 50 on)"},
        {"keep_step_high", "real", "1.2", "upper end of that band (2 from n = 50 on, as Hairer advises for large full systems)"},
        linear_solver_option,
    };
    for (auto& o : iteration_matrix_options()) d.options.push_back(std::move(o));
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    RadauIIASettings s = RadauIIASettings::for_size(problem.size());
    std::string error;
    const bool sparse = read_shared_options("radauiia", problem, request, s, error);
    if (!error.empty()) return {Status::invalid_input, error, request.t0};
    s.min_stages = static_cast<int>(request.extra_int("min_stages", s.min_stages));
    s.max_stages = static_cast<int>(request.extra_int("max_stages", s.max_stages));
    s.start_stages = static_cast<int>(request.extra_int("start_stages", s.start_stages));
    s.raise_rate = request.extra_real("raise_rate", s.raise_rate);
    s.raise_rate_fresh = request.extra_real("raise_rate_fresh", s.raise_rate_fresh);
    s.lower_rate = request.extra_real("lower_rate", s.lower_rate);
    auto valid = [](int k) { return k == 3 || k == 5 || k == 7; };
    if (!valid(s.min_stages) || !valid(s.max_stages) || !valid(s.start_stages) || s.min_stages > s.max_stages ||
        s.start_stages < s.min_stages || s.start_stages > s.max_stages)
      return {Status::invalid_input,
              "radauiia needs stages of 3, 5 or 7 with min_stages <= start_stages <= max_stages", request.t0};
    return solve_one_step(
        problem, request, sink, 2 * s.start_stages - 1, sparse,
        [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm&) {
          return std::make_unique<RadauIIAStepper>(problem, request, mass, matrix, s);
        },
        [](const RadauIIAStepper& stepper) { return std::make_unique<RadauIIAController>(stepper); });
  }
};

}  // namespace

DAEKIT_EXPORT_SOLVER(Radau5Solver, radau5, "0.1.0",
                     "Radau IIA, 3 stages, order 5 (RADAU5's structure): stiff ODEs and DAEs up to index 3")
DAEKIT_EXPORT_SOLVER(RadauIIASolver, radauiia, "0.1.0",
                     "Radau IIA with 3/5/7 stages (orders 5/9/13), order chosen from Newton's convergence (RADAU)")
