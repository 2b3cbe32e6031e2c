// Between the petsc plugin and its engine module (engine/, libdaekit_petsc_ts.so): the
// plugin is loaded by every run of the host and so links no PETSc (106 libraries, 0.12 s
// to load); the engine, which does, is opened by the runs that solve with it. Both are
// built from this tree by one compiler, so C++ types cross; the version refuses a stale
// engine left in an installation.
#pragma once

#include <daekit/output_sink.hpp>
#include <daekit/problem_view.hpp>
#include <daekit/sdk/solver.hpp>
#include <daekit/solve_request.hpp>

#include "options.hpp"

extern "C" {

#define DAEKIT_PETSC_ENGINE_VERSION 2
#define DAEKIT_PETSC_ENGINE_FILE "libdaekit_petsc_ts.so"
#define DAEKIT_PETSC_ENGINE_ENTRY "daekit_petsc_engine"

struct daekit_petsc_engine_table {
  int version;
  // The options as the plugin read and checked them.
  daekit::SolveOutcome (*solve)(daekit::ProblemView& problem, const daekit::SolveRequest& request,
                                daekit::OutputSink& sink, const daekit::plugins::PetscTsOptions& options);
};

typedef const daekit_petsc_engine_table* (*daekit_petsc_engine_entry)();
}
