// What every TS of the engine shares, serial or spread over ranks: the method and its
// linear algebra from the options, petsc_options in a database of the solve's own, the
// outcome of a failed step as a status, and TS's counters as daekit's statistics.
#pragma once

#include <petscts.h>

#include <Eigen/Core>
#include <daekit/sdk/solver.hpp>
#include <daekit/solve_request.hpp>
#include <string>

#include "../options.hpp"

namespace daekit {
class ProblemView;
}

namespace daekit::plugins::petsc {

// TS's type, its scheme and order, TSAdapt's step limits, KSP and PC; "" or PETSc's refusal.
std::string configure_method(TS ts, const PetscTsOptions& options, const SolveRequest& request);

// petsc_options into *database (created here, the caller destroys it), read by TS and
// everything under it; an option daekit sets itself, or one nothing read, is refused.
std::string read_petsc_options(TS ts, const PetscTsOptions& options, PetscOptions* database);

// TSAdapt's absolute tolerances: the request's, and with suppress_algebraic (IDA's
// suppressalg) infinite for the algebraic components, PETSc's way to leave a component
// out of TS's error estimate (TSSetTolerances). Index-2 components left out the same way
// let the slider crank run (with them in, it fails at t0), but to 2.5 digits at rtol 1e-6,
// and the wheelset to 0.0-2.7 (docs/solvers/petsc.md): index 2 and 3 stay refused.
// Both paths, one process and over ranks, set these.
Eigen::VectorXd error_test_atol(const ProblemView& problem, const SolveRequest& request);

// TS's next step no longer than h: a first step's length after a breakpoint or an event
// (TsIntegrator::after_breakpoint says why). h <= 0 (none found) leaves TS's own step.
void shorten_next_step(TS ts, double h);

// The status of a step that failed: `error` PETSc's error code (0: none, TS gave up:
// `reason`), `model_failed` when the model's own evaluation stopped it.
Status ts_failure_status(PetscErrorCode error, TSConvergedReason reason, bool model_failed);

// One TSStep that does not pass `stop`: TSAdapt matches the last step to TS's final time
// when it chooses it, but a step chosen before a restart (an event, a breakpoint) is
// clipped here, and an end that rounding left a few ulps from `stop` is put on it. *t: the
// time reached; PETSc's error code.
PetscErrorCode step_until(TS ts, double stop, double* t);

// Steps attempted: accepted, rejected, and failed Newton solves (--max-steps counts these).
long attempted_steps(TS ts);

// A model evaluation that failed recoverably (a state the model cannot take) fails this
// Newton solve as out of the domain, and TS retries with a smaller step.
void mark_out_of_domain(TS ts, bool in_jacobian);

// TS's steps, Newton and Krylov iterations into `s`; `jacobians` matrices formed,
// `sparse` whether in AIJ.
void add_ts_stats(TS ts, const PetscTsOptions& options, long jacobians, bool sparse, Stats& s);

}  // namespace daekit::plugins::petsc
