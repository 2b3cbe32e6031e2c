/* A daekit problem plugin as a compiled model for R's deSolve, so that Hairer's RADAU5
 * (deSolve's radau is his Fortran code, built by Debian with gfortran -O2) integrates
 * exactly the f and Jacobian daekit's solvers see. Used by ../radau5-reference.sh.
 *
 * The plugin is named by DAEKIT_PLUGIN (its .so) and DAEKIT_ENTRY (its factory alias,
 * daekit_v1_entry_<problem>). The model_* functions are called from R with .C. */
#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daekit/abi.h"

static dk_problem problem;
static const dk_problem_info* info;

static void log_message(void* env, int32_t level, const char* message) {
  (void)env;
  (void)level;
  fprintf(stderr, "%s\n", message);
}

void model_initial_values(double* y);
void model_mass(double* y0, double* m);

static void die(const char* what, const char* detail) {
  fprintf(stderr, "radau5-reference: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

static void load(void) {
  static dk_host host = {sizeof(dk_host), NULL, log_message};
  if (info) return;
  const char* path = getenv("DAEKIT_PLUGIN");
  const char* entry_name = getenv("DAEKIT_ENTRY");
  if (!path || !entry_name) die("DAEKIT_PLUGIN and DAEKIT_ENTRY must be set", NULL);
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) die("cannot load the plugin", dlerror());
  dk_problem_entry_fn* entry = (dk_problem_entry_fn*)dlsym(library, entry_name);
  char err[512] = "";
  if (!entry) die("no such entry", entry_name);
  /* DAEKIT_PARAMS="N=80,k=v": the problem's parameters, as daekit run's --param. */
  static char text[1024];
  static dk_keyval params[32];
  size_t nparams = 0;
  const char* given = getenv("DAEKIT_PARAMS");
  if (given && *given) {
    snprintf(text, sizeof text, "%s", given);
    for (char* item = strtok(text, ","); item && nparams < 32; item = strtok(NULL, ",")) {
      char* eq = strchr(item, '=');
      if (!eq) die("DAEKIT_PARAMS wants key=value pairs", item);
      *eq = '\0';
      params[nparams].key = item;
      params[nparams].value = eq + 1;
      ++nparams;
    }
  }
  if ((*entry)(&host, params, nparams, &problem, err, sizeof err) != 0) die("the problem did not start", err);
  info = problem.vtbl->info(problem.self);
}

/* DAEKIT_REFERENCE=FILE: the reference at tend from a file of n numbers (a tight run of
 * another solver, for parameters the problem has no reference for; peer-compare.py). */
static double* external_reference(void) {
  static double* values;
  static int tried;
  const char* path = getenv("DAEKIT_REFERENCE");
  if (tried || !path || !*path) return values;
  tried = 1;
  FILE* f = fopen(path, "r");
  if (!f) die("cannot read DAEKIT_REFERENCE", path);
  values = malloc(sizeof(double) * info->n);
  for (size_t i = 0; i < info->n; ++i)
    if (fscanf(f, "%lf", &values[i]) != 1) die("DAEKIT_REFERENCE has fewer values than the problem's size", path);
  fclose(f);
  return values;
}

void model_info(int* n, double* t0, double* tend, int* has_reference, int* has_jacobian) {
  load();
  *n = (int)info->n;
  *t0 = info->t0;
  *tend = info->tend;
  *has_reference = external_reference() ? 1 : (int)info->has_reference;
  *has_jacobian = (info->flags & DK_PROBLEM_ANALYTIC_JACOBIAN) != 0;
}

void model_initial_values(double* y) {
  load();
  if (problem.vtbl->initial_values(problem.self, y, NULL) != DK_EVAL_OK) die("initial values failed", NULL);
}

/* y'(t0): the problem's own when it gives one, else from M y' = f for a diagonal M
 * (0 for the algebraic components). For the IDA peer (scripts/benchmarks/ida-reference). */
void model_initial_derivatives(double* y, double* yp) {
  load();
  const size_t n = info->n;
  if (info->flags & DK_PROBLEM_HAS_YP0) {
    if (problem.vtbl->initial_values(problem.self, y, yp) != DK_EVAL_OK) die("initial values failed", NULL);
    return;
  }
  double* m = calloc(n * n, sizeof(double));
  model_initial_values(y);
  model_mass(y, m);
  if (problem.vtbl->rhs(problem.self, info->t0, y, yp) != DK_EVAL_OK) die("f failed at t0", NULL);
  for (size_t i = 0; i < n; ++i) yp[i] = m[i * n + i] != 0.0 ? yp[i] / m[i * n + i] : 0.0;
  free(m);
}

/* Column-major n x n at (t0, y0); the identity when the problem has none. */
void model_mass(double* y0, double* m) {
  load();
  const size_t n = info->n;
  for (size_t i = 0; i < n * n; ++i) m[i] = 0.0;
  if (!problem.vtbl->mass || problem.vtbl->mass(problem.self, info->t0, y0, m, n) == DK_EVAL_NOT_PROVIDED)
    for (size_t i = 0; i < n; ++i) m[i * n + i] = 1.0;
}

void model_index(int* index) {
  load();
  for (size_t i = 0; i < info->n; ++i) index[i] = info->index ? info->index[i] : 1;
}

/* The test set's scd (daekit's rule: relative error on scored components, absolute where
 * the problem says so). */
void model_scd(double* y, double* scd) {
  load();
  double* ref = malloc(sizeof(double) * info->n);
  double worst = 0.0;
  if (external_reference())
    memcpy(ref, external_reference(), sizeof(double) * info->n);
  else if (problem.vtbl->reference(problem.self, ref) != DK_EVAL_OK)
    die("no reference", NULL);
  for (size_t i = 0; i < info->n; ++i) {
    if (info->scored && info->scored[i] == 0) continue;
    const double err = fabs(y[i] - ref[i]);
    if (info->scored && info->scored[i] == DK_SCORED_ABSOLUTE) {
      if (err > worst) worst = err;
    } else if (fabs(ref[i]) >= 1e-200 && err / fabs(ref[i]) > worst) {
      worst = err / fabs(ref[i]);
    }
  }
  *scd = -log10(worst > 0.0 ? worst : 1e-16);
  free(ref);
}

/* deSolve's compiled-model interface. */
void derivs(int* neq, double* t, double* y, double* ydot, double* yout, int* ip) {
  (void)neq, (void)yout, (void)ip;
  if (problem.vtbl->rhs(problem.self, *t, y, ydot) != DK_EVAL_OK) die("f failed", NULL);
}

void jac(int* neq, double* t, double* y, int* ml, int* mu, double* pd, int* nrowpd, double* yout, int* ip) {
  (void)neq, (void)ml, (void)mu, (void)yout, (void)ip;
  if (problem.vtbl->jacobian(problem.self, *t, y, pd, (size_t)*nrowpd) != DK_EVAL_OK)
    die("the problem has no analytic Jacobian", NULL);
}

/* The problem's Krylov entries (ABI 1.3), for the CVODE + SPGMR peer
 * (../cvode-reference/cvode_spgmr_driver.c): whether it has them, and the calls. */
#define HAS_ENTRY(field) \
  (problem.vtbl->struct_size >= offsetof(dk_problem_vtbl, field) + sizeof problem.vtbl->field && problem.vtbl->field)

int model_has_preconditioner(void) {
  load();
  return (info->flags & DK_PROBLEM_PRECONDITIONER) && HAS_ENTRY(prec_setup) && HAS_ENTRY(prec_solve);
}

int model_has_jacobian_vector(void) {
  load();
  return (info->flags & DK_PROBLEM_DIRECTIONAL_DERIVATIVE) && HAS_ENTRY(jacobian_vector);
}

int model_jacobian_vector(double t, const double* y, const double* v, double* jv) {
  return problem.vtbl->jacobian_vector(problem.self, t, y, v, jv) == DK_EVAL_OK ? 0 : -1;
}

int model_prec_setup(double t, const double* y, double gamma, int* jac_current) {
  int32_t current = *jac_current;
  const dk_eval e = problem.vtbl->prec_setup(problem.self, t, y, gamma, &current);
  *jac_current = current;
  return e == DK_EVAL_OK ? 0 : e == DK_EVAL_RECOVERABLE ? 1 : -1;
}

int model_prec_solve(double t, const double* y, const double* r, double* z, double gamma, double delta) {
  const dk_eval e = problem.vtbl->prec_solve(problem.self, t, y, r, z, gamma, delta);
  return e == DK_EVAL_OK ? 0 : e == DK_EVAL_RECOVERABLE ? 1 : -1;
}
