/* What the SPGMR peer drivers (../cvode-reference/cvode_spgmr_driver.c,
 * ../ida-reference/ida_spgmr_driver.c) take from model.c, and the one line they print. */
#pragma once
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_spgmr.h>

void model_info(int* n, double* t0, double* tend, int* has_reference, int* has_jacobian);
void model_initial_values(double* y);
void model_scd(double* y, double* scd);
void derivs(int* neq, double* t, double* y, double* ydot, double* yout, int* ip);
int model_has_preconditioner(void);
int model_has_jacobian_vector(void);
int model_jacobian_vector(double t, const double* y, const double* v, double* jv);
int model_prec_setup(double t, const double* y, double gamma, int* jac_current);
int model_prec_solve(double t, const double* y, const double* r, double* z, double gamma, double delta);

/* "scd steps newton_iterations krylov_iterations preconditioner_setups seconds", or where
 * the integrator stopped; the exit status (1 when it failed). */
static inline int report_krylov_run(const char* integrator, int flag, double t_reached, double* y, int has_reference,
                                    long steps, long newton, long krylov, long setups, double seconds) {
  if (flag < 0) {
    printf("fails (%s flag %d at t = %g) %ld\n", integrator, flag, t_reached, steps);
    return 1;
  }
  double scd = NAN;
  if (has_reference) model_scd(y, &scd);
  printf("%.2f %ld %ld %ld %ld %.3f\n", scd, steps, newton, krylov, setups, seconds);
  return 0;
}

/* The problem as both drivers open it: argv's <rtol> <atol>, the model's size, span and
 * reference, and the entries the driver needs (J v when needs_jacobian_vector). 0, or the
 * exit status for a usage error or a problem without them. */
static inline int open_krylov_run(int argc, char** argv, const char* driver, int needs_jacobian_vector, double* rtol,
                                  double* atol, int* n, double* t0, double* tend, int* has_reference) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <rtol> <atol>\n", driver);
    return 2;
  }
  *rtol = atof(argv[1]);
  *atol = atof(argv[2]);
  int has_jacobian;
  model_info(n, t0, tend, has_reference, &has_jacobian);
  if (!model_has_preconditioner() || (needs_jacobian_vector && !model_has_jacobian_vector())) {
    fprintf(stderr, "%s: the problem needs prec_setup and prec_solve%s\n", driver,
            needs_jacobian_vector ? " and jacobian_vector" : "");
    return 2;
  }
  return 0;
}

/* SPGMR as daekit's cvode and ida adapters and bdf set it up by default: maxl 5, 5
 * restarts; their linear tolerance factor eplifac is SPGMR_EPLIFAC. */
#define SPGMR_EPLIFAC 0.05
static inline SUNLinearSolver make_spgmr(N_Vector y, int side, SUNContext ctx) {
  SUNLinearSolver solver = SUNLinSol_SPGMR(y, side, 5, ctx);
  SUNLinSol_SPGMRSetMaxRestarts(solver, 5);
  return solver;
}
