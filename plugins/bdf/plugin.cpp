// The multistep plugin: `bdf` (variable-order fixed-leading-coefficient BDF, as
// DASSL and IDA) and `ndf` (the same machinery with the Klopfenstein-Shampine
// kappas, as MATLAB's ode15s), on the BDF kit's BdfStepper. Both take any problem
// form: M y' = f with constant, time- or state-dependent M, and F(t, y, y') = 0.
#include <daekit/kits/bdf/stepper.hpp>
#include <daekit/numerics/newton_tolerance.hpp>
#include <daekit/sdk/export_solver.hpp>

namespace {

using namespace daekit;

// DASSL and IDA stop Newton at a third of the tolerance. What is left is noise in the
// corrector (and in the rounding of the LU that drives it) and enters the differences
// from which the order and the next step are chosen: on Fekete at 1e-11 the step count
// moved 7 035 .. 16 225 with the BLAS kernel alone. Converging further at tight
// tolerances, by RADAU5's rule with DASSL's 0.33 as the cap, removes that
// (docs/solvers/bdf.md: spread 0.00 on Fekete 1e-8 .. 1e-11) and takes fewer steps.
constexpr double dassl_newton_tolerance = 0.33;

template <bool Ndf>
class MultistepSolver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d;
    d.capabilities.max_mass = MassKind::state_dependent;
    d.capabilities.residual_form = true;
    // Index 3 is refused: with h^2 scaling the iteration matrix's condition (~h^-3) ends
    // runs at small h as singular, and on Andrews' mechanism the accuracy stalled at
    // 2.6 digits from 1e-6 to 1e-8 (docs/solvers/bdf.md). radau5 takes index 3.
    d.capabilities.max_dae_index = 2;
    d.capabilities.dense_output = true;
    d.capabilities.sparse = true;
    d.capabilities.order = 5;
    d.capabilities.events = true;
    d.capabilities.event_sampling = true;
    d.capabilities.constraints = true;
    d.capabilities.keep_dense = true;
    d.capabilities.step_notification = true;
    d.capabilities.mass_storage = true;
    d.options = {
        {"max_order", "int", "5", "highest order (1-5)"},
        {"max_newton", "int", "4", "Newton iterations per step before the step is retried (DASSL's MAXIT)"},
        {"newton_tol", "real", "0",
         "Newton converged when rate/(1-rate)*|delta| <= this (in the error norm); 0: max(10 u/rtol, "
         "min(0.33, sqrt(rtol))), tighter at tight tolerances (DASSL's fixed 0.33 lets rounding steer the order)"},
        {"restart_at_tstops", "bool", "true",
         "restart at order 1 at every breakpoint (tstop), as the test set's drivers do; false: only land on them"},
        {"fixed_step", "real", "0",
         "> 0: constant steps of this size at order max_order after a short start-up, no error control "
         "(for order measurements)"},
    };
    for (auto& o : iteration_matrix_options()) d.options.push_back(std::move(o));
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    BdfSettings s;
    s.ndf = Ndf;
    s.max_order = static_cast<int>(request.extra_int("max_order", s.max_order));
    s.max_newton = static_cast<int>(request.extra_int("max_newton", s.max_newton));
    s.newton_tol = request.extra_real("newton_tol", 0.0);
    if (s.newton_tol == 0.0) s.newton_tol = newton_tolerance(request.rtol.minCoeff(), dassl_newton_tolerance);
    s.fixed_step = request.extra_real("fixed_step", s.fixed_step);
    s.restart_at_tstops = request.extra_bool("restart_at_tstops", s.restart_at_tstops);
    if (s.max_order < 1 || s.max_order > 5 || s.max_newton < 1 || !(s.newton_tol > 0.0) || !(s.fixed_step >= 0.0))
      return {Status::invalid_input, "bdf needs 1 <= max_order <= 5, max_newton >= 1, newton_tol >= 0, fixed_step >= 0",
              request.t0};
    return solve_bdf(problem, request, sink, s);
  }
};

using Bdf = MultistepSolver<false>;
using Ndf = MultistepSolver<true>;

}  // namespace

DAEKIT_EXPORT_SOLVER(Bdf, bdf, "0.1.0",
                     "variable-order BDF 1-5, fixed-leading-coefficient form (DASSL/IDA): stiff ODEs, DAEs, F(t,y,y')=0")
DAEKIT_EXPORT_SOLVER(Ndf, ndf, "0.1.0",
                     "numerical differentiation formulas 1-5 (Klopfenstein-Shampine, ode15s) on the BDF machinery")
