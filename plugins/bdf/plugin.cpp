// The multistep plugin: `bdf` (variable-order fixed-leading-coefficient BDF, as
// DASSL and IDA) and `ndf` (the same machinery with the Klopfenstein-Shampine
// kappas, as MATLAB's ode15s), on the BDF kit's BdfStepper. Both take any problem
// form: M y' = f with constant, time- or state-dependent M, and F(t, y, y') = 0.
#include <daekit/kits/bdf/stepper.hpp>
#include <daekit/sdk/export_solver.hpp>
#include <daekit/sdk/option_table.hpp>

namespace {

using namespace daekit;

const OptionTable<BdfSettings>& bdf_options() {
  static const auto table =
      OptionTable<BdfSettings>()
          .integer("max_order", &BdfSettings::max_order, between(1, 5), "highest order (1-5)")
          .integer("max_newton", &BdfSettings::max_newton, at_least(1),
                   "Newton iterations per step before the step is retried (DASSL's MAXIT)")
          .real("newton_tol", &BdfSettings::newton_tol, at_least(0),
                "Newton converged when rate/(1-rate)*|delta| <= this (in the error norm); 0: max(10 u/rtol, "
                "min(0.33, sqrt(rtol))), tighter at tight tolerances (DASSL's fixed 0.33 lets rounding steer the order); "
                "with linear_solver=krylov behind the problem's preconditioner, ILUT or AMG, DASSL's 0.33")
          .flag("restart_at_tstops", &BdfSettings::restart_at_tstops,
                "restart at order 1 at every breakpoint (tstop), as the test set's drivers do; false: only land on them")
          .real("fixed_step", &BdfSettings::fixed_step, at_least(0),
                "> 0: constant steps of this size at order max_order after a short start-up, no error control "
                "(for order measurements)")
          .listed(iteration_matrix_options())
          .listed(krylov_option_rows(bdf_direct_solvers()));
  return table;
}

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
    d.capabilities.sensitivities = true;  // ODEs with a constant M (kit/sensitivities.cpp)
    d.capabilities.constraints = true;
    d.capabilities.keep_dense = true;
    d.capabilities.step_notification = true;
    d.capabilities.mass_storage = true;
    d.options = bdf_options().describe();
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    BdfSettings s;
    s.ndf = Ndf;
    if (std::string why; !bdf_options().read(request, s, &why) ||
                         !read_krylov_options(problem, request, bdf_direct_solvers(), s.linear, &why))
      return {Status::invalid_input, why, request.t0};
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
