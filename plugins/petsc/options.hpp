// The options of the petsc solver, declared once (sdk/option_table.hpp): the list `daekit
// info petsc` shows, the reading and the checks. Read by the plugin, which needs no PETSc,
// and by the engine module, which runs TS with them.
#pragma once

#include <daekit/sdk/option_table.hpp>
#include <string>
#include <utility>
#include <vector>

namespace daekit::plugins {

struct PetscTsOptions {
  std::string ts = "rosw";             // TS type
  std::string rosw_type = "ra34pw2";   // TSRosWType
  std::string arkimex_type = "4";      // TSARKIMEXType, fully implicit
  int bdf_order = 2;                   // TSBDF's (fixed) order
  double theta = 0.5;                  // TSTHETA's theta, at the endpoint
  std::string ksp = "preonly";         // KSPType for each Newton / stage system
  std::string pc = "lu";               // PCType
  std::string extra;                   // PETSc options-database text for this solve
};

namespace petsc_choices {
using Pairs = std::vector<std::pair<std::string, std::string>>;
inline Pairs same(std::initializer_list<const char*> names) {
  Pairs p;
  for (const char* n : names) p.emplace_back(n, n);
  return p;
}
}  // namespace petsc_choices

inline const OptionTable<PetscTsOptions>& petsc_ts_options() {
  using petsc_choices::same;
  static const auto table =
      OptionTable<PetscTsOptions>()
          .choice("ts", &PetscTsOptions::ts, same({"rosw", "arkimex", "bdf", "theta"}),
                  "PETSc TS type: rosw (Rosenbrock-W, rosw_type), arkimex (additive Runge-Kutta, here fully "
                  "implicit: arkimex_type), bdf (fixed order bdf_order), theta (theta method at the endpoint, "
                  "theta = 0.5: the trapezoidal rule, 1: backward Euler)")
          .choice("rosw_type", &PetscTsOptions::rosw_type,
                  same({"ra34pw2", "ra3pw", "rodas3", "sandu3", "2p", "2m", "theta1", "theta2", "assp3p3s1c",
                        "lassp3p4s2c", "llssp3p4s2c", "ark3", "grk4t", "shamp4", "veldd4", "4l"}),
                  "TSRosWType with ts=rosw (rodas3, grk4t, shamp4, veldd4 and 4l have no dense output: output at "
                  "step ends only, no root functions; lassp3p4s2c, llssp3p4s2c and ark3 have an explicit stage: ODEs "
                  "only)")
          .choice("arkimex_type", &PetscTsOptions::arkimex_type,
                  same({"1bee", "a2", "l2", "ars122", "2c", "2d", "2e", "prssp2", "3", "bpr3", "ars443", "4", "5"}),
                  "TSARKIMEXType with ts=arkimex")
          .integer("bdf_order", &PetscTsOptions::bdf_order, between(1, 6), "TSBDF's order with ts=bdf (fixed)")
          .real("theta", &PetscTsOptions::theta, between(0.5, 1.0),
                "theta with ts=theta (0.5 .. 1: A-stable; the endpoint form, adaptive)")
          .choice("ksp", &PetscTsOptions::ksp, same({"preonly", "gmres", "fgmres", "bcgs"}),
                  "KSP for the linear systems: preonly (with pc=lu: a direct solve) or a Krylov method")
          .choice("pc", &PetscTsOptions::pc, same({"lu", "ilu", "jacobi", "bjacobi", "asm", "hypre", "none"}),
                  "PC: lu (PETSc's own LU, dense or sparse in the problem's pattern; MUMPS over MPI ranks), ilu "
                  "(one process), jacobi, bjacobi and asm (ILU(0) in each rank's block: block Jacobi, additive "
                  "Schwarz), hypre (BoomerAMG), none")
          .text("petsc_options", &PetscTsOptions::extra,
                "further PETSc options for this solve, as on PETSc's command line (e.g. \"-ts_adapt_type dsp\"); "
                "an option PETSc does not use is an error");
  return table;
}

// The TS types whose TSInterpolate PETSc does not implement (measured: PETSC_ERR_SUP).
inline bool petsc_has_dense_output(const PetscTsOptions& o) {
  if (o.ts != "rosw") return true;
  for (const char* none : {"rodas3", "grk4t", "shamp4", "veldd4", "4l"})
    if (o.rosw_type == none) return false;
  return true;
}

}  // namespace daekit::plugins
