// `petsc`: PETSc's TS (3.18, Debian's petsc-dev) behind the daekit solver interface. This
// plugin describes the solver and checks its options; the solving is the engine module's
// (engine_table.hpp says why it is separate), opened on the first solve.
#include <dlfcn.h>

#include <daekit/sdk/export_solver.hpp>
#include <string>

#include "engine_table.hpp"
#include "options.hpp"

namespace daekit::plugins {
namespace {

// The engine sits next to the core library, two folders above the plugins (as the plugins'
// own run path finds libdaekit_core, in the build tree and installed alike).
const daekit_petsc_engine_table* open_engine(std::string* why) {
  static std::string failure;
  static const daekit_petsc_engine_table* table = [] () -> const daekit_petsc_engine_table* {
    Dl_info self{};
    if (!dladdr(reinterpret_cast<void*>(&open_engine), &self) || !self.dli_fname) {
      failure = "the petsc plugin's own path is unknown";
      return nullptr;
    }
    std::string path = self.dli_fname;
    path = path.substr(0, path.find_last_of('/') + 1) + "../../" DAEKIT_PETSC_ENGINE_FILE;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      failure = "the PETSc engine cannot be opened: " + std::string(e ? e : path);
      return nullptr;
    }
    auto entry = reinterpret_cast<daekit_petsc_engine_entry>(dlsym(handle, DAEKIT_PETSC_ENGINE_ENTRY));
    const daekit_petsc_engine_table* t = entry ? entry() : nullptr;
    if (!t || t->version != DAEKIT_PETSC_ENGINE_VERSION) {
      failure = path + " is not this build's PETSc engine (version " + std::to_string(t ? t->version : 0) + ", needs " +
                std::to_string(DAEKIT_PETSC_ENGINE_VERSION) + ")";
      return nullptr;
    }
    return t;
  }();
  if (!table) *why = failure;
  return table;
}

class PetscSolver : public Solver {
 public:
  static SolverDescription describe() {
    SolverDescription d;
    // M(t) as a residual (engine/ts_model.hpp); the state-dependent M would go the same way,
    // but no index-1 problem with one exists to prove it on (crank17 is of index 2).
    d.capabilities.max_mass = MassKind::time_dependent;
    d.capabilities.residual_form = true;
    d.capabilities.max_dae_index = 1;
    d.capabilities.dense_output = true;  // TSInterpolate (not rosw_type=rodas3: refused where output needs it)
    d.capabilities.sparse = true;
    d.capabilities.order = 4;
    d.capabilities.events = true;
    d.capabilities.event_sampling = true;
    d.capabilities.constraints = true;
    d.capabilities.keep_dense = true;
    d.capabilities.step_notification = true;
    d.capabilities.mass_storage = true;
    d.capabilities.distributed = true;  // engine/distributed_run.cpp
    d.options = petsc_ts_options().describe();
    return d;
  }

  SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) override {
    PetscTsOptions options;
    if (std::string why; !petsc_ts_options().read(request, options, &why)) return {Status::invalid_input, why, request.t0};
    std::string why;
    const daekit_petsc_engine_table* engine = open_engine(&why);
    if (!engine) return {Status::internal_error, why, request.t0};
    return engine->solve(problem, request, sink, options);
  }
};

}  // namespace
}  // namespace daekit::plugins

using daekit::plugins::PetscSolver;

DAEKIT_EXPORT_SOLVER(PetscSolver, petsc, "0.1.0",
                     "PETSc 3.18 TS: Rosenbrock-W (rosw), implicit additive Runge-Kutta (arkimex), BDF and theta "
                     "methods with TSAdapt, SNES and KSP/PC (LU or Krylov)")
