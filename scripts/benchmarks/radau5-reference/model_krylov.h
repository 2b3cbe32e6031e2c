/* What the SPGMR peer drivers (../cvode-reference/cvode_spgmr_driver.c,
 * ../ida-reference/ida_spgmr_driver.c) take from model.c, and the one line they print. */
#pragma once
#include <math.h>
#include <stdio.h>

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
