/* daekit plugin ABI, version 1.3 (docs/abi.md lists what each minor added).
 *
 * This is the only header that host and plugins must agree on byte for byte.
 * Only C types cross it: PODs, raw pointers, sizes and integers. No exception,
 * standard-library or Eigen object ever crosses, so a problem plugin built by a
 * third party with its own toolchain can be run by any solver plugin.
 *
 * Growth rules (docs/abi.md):
 *  - DK_ABI_MAJOR changes on any incompatible change; the host refuses other
 *    majors before it runs any code of the plugin (the major is part of the
 *    manifest's symbol name, readable without loading the library).
 *  - DK_ABI_MINOR grows when a struct gains fields at its end. Every struct
 *    that can grow starts with `struct_size`; readers look only at fields that
 *    lie inside the size the writer declared. A NULL function pointer means
 *    "not provided".
 */
#ifndef DAEKIT_ABI_H
#define DAEKIT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DK_ABI_MAGIC 0x4B444144u /* "DADK" in little-endian bytes */
#define DK_ABI_MAJOR 1u
#define DK_ABI_MINOR 3u

/* Every manifest is exported (as a Boost.DLL alias) in this ELF section under the
 * name "daekit_v<MAJOR>_manifest_<plugin name>". */
#define DK_SECTION_NAME "daekit"

typedef enum { DK_KIND_SOLVER = 1, DK_KIND_PROBLEM = 2 } dk_kind;

/* Result of every model callback (SUNDIALS sign rule). */
typedef int32_t dk_eval;
#define DK_EVAL_OK 0
#define DK_EVAL_RECOVERABLE 1  /* cannot evaluate here: retry with a smaller step */
#define DK_EVAL_NOT_PROVIDED 2 /* optional capability absent */
#define DK_EVAL_FATAL (-1)     /* stop; the message is available through last_error */

typedef struct dk_manifest {
  uint32_t magic;
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t struct_size;
  uint32_t kind;           /* dk_kind */
  const char* name;        /* command-line name, e.g. "rodas5p" */
  const char* version;     /* plugin version, semver */
  const char* description; /* one line */
  const char* build_id;    /* compiler and library fingerprint, advisory */
  const char* entry;       /* alias name of the factory function */
} dk_manifest;

typedef struct dk_keyval {
  const char* key;
  const char* value;
} dk_keyval;

/* Services the host offers to a plugin. */
typedef struct dk_host {
  uint32_t struct_size;
  void* env;
  void (*log)(void* env, int32_t level, const char* message); /* level: 0 info, 1 warning */
  /* ABI 1.3, distributed problems (docs/abi-1.3-design.md part E); read only when
     struct_size covers them. The MPI communicator a problem created now may spread its rows
     over, as MPI_Comm_c2f's integer (no MPI header crosses this boundary), or -1: the
     problem is whole in this process. A problem needs no MPI to read its rank and size. */
  int64_t mpi_comm_f;
  int32_t mpi_rank; /* this process's rank in it (0 when serial) */
  int32_t mpi_size; /* the number of ranks (1 when serial) */
} dk_host;

/* ----------------------------------------------------------------------------------
 * Problems:  M(t,y) y' = f(t,y)   or, for residual-only problems,  F(t,y,y') = 0
 * ---------------------------------------------------------------------------------- */

typedef enum {
  DK_MASS_IDENTITY = 0,
  DK_MASS_CONSTANT = 1,       /* constant, possibly singular */
  DK_MASS_TIME_DEPENDENT = 2, /* M(t) */
  DK_MASS_STATE_DEPENDENT = 3 /* M(t, y) */
} dk_mass_kind;

typedef enum {
  DK_FORM_MASS_MATRIX = 0,  /* rhs and mass given; residual derived as M y' - f */
  DK_FORM_RESIDUAL_ONLY = 1 /* only residual (and its Jacobian) given */
} dk_form;

#define DK_PROBLEM_ANALYTIC_JACOBIAN (1u << 0)
#define DK_PROBLEM_ANALYTIC_DFDT (1u << 1)
#define DK_PROBLEM_AUTONOMOUS (1u << 2)
#define DK_PROBLEM_SPARSE_JACOBIAN (1u << 3) /* jac_pattern is valid; jacobian_sparse gives its values,
                                                or is NULL (a pattern without values: solvers difference in it) */
#define DK_PROBLEM_CONSISTENT_Y0 (1u << 4)   /* initial values are consistent by construction */
#define DK_PROBLEM_HAS_YP0 (1u << 5)         /* initial_values also fills y'(t0) */
#define DK_PROBLEM_ANALYTIC_RESIDUAL_JACOBIAN (1u << 6)
/* ABI 1.2 */
#define DK_PROBLEM_REFERENCE_AT (1u << 7)           /* reference_at(t) gives the solution at any t */
#define DK_PROBLEM_TIME_EVENTS (1u << 8)            /* next_time_event names times of events */
#define DK_PROBLEM_ROOTS_USE_YP (1u << 9)           /* roots() reads y' (residual-form models) */
#define DK_PROBLEM_DIRECTIONAL_DERIVATIVE (1u << 10) /* jacobian_vector gives (df/dy) v */
#define DK_PROBLEM_STEP_NOTIFICATION (1u << 11)     /* step_completed wants every accepted step */
#define DK_PROBLEM_PRECONDITIONER (1u << 12) /* ABI 1.3: prec_setup and prec_solve give a preconditioner */

/* How the mass matrix is stored (ABI 1.2), orthogonal to dk_mass_kind. */
typedef enum {
  DK_MASS_STORAGE_DENSE = 0,    /* mass(): n x n column-major (1.1's only storage) */
  DK_MASS_STORAGE_DIAGONAL = 1, /* mass_diagonal(): n values */
  DK_MASS_STORAGE_SPARSE = 2    /* mass_sparse(): values in mass_pattern's order */
} dk_mass_storage;

/* Sign constraints on components (ABI 1.2), the codes of SUNDIALS' IDASetConstraints. */
#define DK_CONSTRAINT_NONE 0
#define DK_CONSTRAINT_NON_NEGATIVE 1  /* y >= 0 */
#define DK_CONSTRAINT_POSITIVE 2      /* y > 0 */
#define DK_CONSTRAINT_NON_POSITIVE (-1)
#define DK_CONSTRAINT_NEGATIVE (-2)

/* Directions of event functions (ABI 1.2). */
#define DK_ROOT_BOTH 0
#define DK_ROOT_RISING 1   /* g goes from negative to positive */
#define DK_ROOT_FALLING (-1)

/* Values of dk_problem_info.scored[i]. */
#define DK_SCORED_NO 0u
#define DK_SCORED_RELATIVE 1u
#define DK_SCORED_ABSOLUTE 2u

/* Compressed sparse column pattern of an n x n matrix (0-based). */
typedef struct dk_sparsity {
  size_t nnz;
  const int32_t* col_ptr; /* n + 1 entries */
  const int32_t* row_idx; /* nnz entries; for jac_pattern ascending within each column */
} dk_sparsity;

typedef struct dk_param_desc {
  const char* name;
  const char* default_value;
  const char* help;
} dk_param_desc;

typedef struct dk_problem_info {
  uint32_t struct_size;
  const char* name;
  const char* title;
  size_t n;
  double t0, tend;
  uint32_t form;      /* dk_form */
  uint32_t mass_kind; /* dk_mass_kind */
  uint32_t flags;     /* DK_PROBLEM_* */
  int32_t jac_lower, jac_upper; /* band widths of df/dy, -1 when dense */
  const uint8_t* index;         /* n entries: DAE index of each component (1, 2 or 3) */
  const uint8_t* differential;  /* n entries: 1 differential, 0 algebraic */
  const char* const* component_names; /* n entries, or NULL */
  size_t nparams;
  const dk_param_desc* params;  /* parameters and their defaults */
  const char* const* param_values; /* nparams entries: the values this instance uses */
  double rtol_hint;             /* suggested rtol, 0 if none */
  const double* atol_scale;     /* n entries or NULL: suggested atol_i = atol_scale[i] * rtol */
  size_t ntstops;
  const double* tstops;         /* breakpoints where integrators should restart */
  uint32_t has_reference;
  double reference_t;
  const uint8_t* scored;        /* n entries: 0 not in scd, 1 relative error (the test set's rule),
                                   DK_SCORED_ABSOLUTE absolute error (as the test set scores medakzo) */
  const char* reference_source; /* provenance of the reference solution */
  dk_sparsity jac_pattern;      /* valid with DK_PROBLEM_SPARSE_JACOBIAN */
  /* ABI 1.2: read only when struct_size covers them */
  uint32_t mass_storage;          /* dk_mass_storage */
  dk_sparsity mass_pattern;       /* CSC pattern of M, with DK_MASS_STORAGE_SPARSE */
  size_t nroots;                  /* event functions g_i(t, y[, y']) */
  const int8_t* root_direction;   /* nroots entries: DK_ROOT_*, or NULL (all DK_ROOT_BOTH) */
  const uint8_t* root_terminal;   /* nroots entries: 1 ends the integration, or NULL (none) */
  const char* const* root_names;  /* nroots entries, or NULL */
  const int8_t* constraints;      /* n entries DK_CONSTRAINT_*, or NULL */
  size_t noutputs;                /* variables besides y the problem computes (outputs()) */
  const char* const* output_names; /* noutputs entries, none of them a component's name */
  /* ABI 1.3: read only when struct_size covers them */
  const double* root_time_scale;  /* nroots entries or NULL: tau_i > 0 promises that two sign
                                     changes of g_i are never closer than tau_i in t, and solvers
                                     then keep their samples of g_i closer than tau_i / 2
                                     (0: nothing promised; the sampling alone) */
  /* ABI 1.3, parameters (docs/abi-1.3-design.md part B): real parameters p that set_p changes
     between solves without re-creating the problem, the p of sensitivities. Distinct from
     the string parameters above (fixed at creation); a creation key/value that names a real
     parameter sets its value. */
  size_t np;
  const char* const* p_names;       /* np entries: distinct, none a string parameter's name */
  const double* p_nominal;          /* np entries: the values a new instance has, finite */
  const double* p_scale;            /* np entries or NULL: typical magnitudes (> 0) for
                                       difference increments and scaling */
  dk_sparsity dfdp_pattern;         /* n x np CSC pattern of df/dp (dF/dp); nnz = 0: dense */
  /* ABI 1.3, distributed problems (part E): the rows this rank owns, or NULL: the problem is
     whole in this process. With n_local < n only solvers claiming DK_SOLVER_DISTRIBUTED
     take it, and they evaluate it through the *_local entries alone. */
  const struct dk_distribution* distribution;
  /* ABI 1.3: the spacing of the output points a run takes when its caller chose none (the
     command without --every-step or --saveat): an FMU's DefaultExperiment stepSize, as
     FMPy's output interval. 0: none (the end alone). Finite and >= 0. */
  double output_interval;
} dk_problem_info;

/* How a problem's rows are spread over the ranks of a communicator (ABI 1.3). Rank r owns
   the consecutive global rows first_row .. first_row + n_local - 1, the blocks in rank
   order covering 0 .. n-1. A local vector holds the owned values, then the ghosts: values
   of other ranks' rows that the owned rows read, in ghost_rows' order. Only a problem of
   the mass-matrix form with M = I, or a constant diagonal M (mass_diagonal_local), is
   distributed. The n-entry arrays of dk_problem_info are global, unless local_rows says
   they hold this rank's rows alone (see there). */
typedef struct dk_distribution {
  uint32_t struct_size;
  int64_t mpi_comm_f;         /* the communicator (dk_host's) */
  int32_t mpi_rank;           /* this rank in it; solvers emit output points on rank 0 alone
                                 (gathered there), other ranks' output sinks get none;
                                 with local_rows every rank gets its owned rows */
  size_t n_local;             /* rows this rank owns, >= 1 */
  size_t first_row;           /* global index of the first */
  size_t nghost;              /* other ranks' rows the owned rows read */
  const int64_t* ghost_rows;  /* their global indices, strictly ascending */
  /* The pattern of df/dy's owned rows in CSR over local columns (0 .. n_local-1 owned,
     n_local + g ghost g), columns ascending in each row. Without jacobian_local solvers
     difference rhs_local in it (a rank's columns, ghosts too, need no other rank);
     jac_nnz = 0: no pattern, which a solver that forms the matrix refuses. */
  size_t jac_nnz;
  const int32_t* jac_row_ptr; /* n_local + 1 entries */
  const int32_t* jac_col_idx; /* jac_nnz entries */
  /* ABI 1.3, part G (read only when struct_size covers it). 1: the problem's per-row data
     is this rank's owned rows alone, so that no rank holds O(n): index, differential,
     atol_scale and scored have n_local entries; initial_values, reference and
     reference_at fill n_local values (y0 and y'0 alike); component_names and constraints
     are NULL, every index is 1, and there is no global Jacobian pattern
     (DK_PROBLEM_SPARSE_JACOBIAN unset: the local one above serves). The solver's y0, rtol
     and atol then hold the owned rows too, and every rank's output sink receives the
     owned rows of each output point. 0: all of it global, as before. */
  uint32_t local_rows;
} dk_distribution;

/* An event as the solver found it (ABI 1.2). */
#define DK_EVENT_ROOT 1u /* one or more root functions changed sign */
#define DK_EVENT_TIME 2u /* a time named by next_time_event was reached */
#define DK_EVENT_STEP 3u /* step_completed asked for event handling */
typedef struct dk_event {
  uint32_t struct_size;
  double t;
  uint32_t kind;             /* DK_EVENT_* */
  size_t nfired;
  const int32_t* fired;      /* indices of the roots found at t (simultaneous ones together) */
  const int8_t* directions;  /* nfired entries: +1 rising, -1 falling */
} dk_event;

/* Actions an on_event or step_completed callback returns. */
#define DK_EVENT_CONTINUE 0u
#define DK_EVENT_STOP 1u   /* end the integration at the event (status DK_STATUS_STOPPED_BY_EVENT) */
#define DK_EVENT_REINIT 2u /* y (and y') changed, possibly the DAE's mode: restart, re-solving
                              the algebraic components for consistency */
#define DK_EVENT_HANDLE 3u /* step_completed only: an event at the end of this step; the solver
                              calls on_event there with kind DK_EVENT_STEP (FMI's enterEventMode) */

/* Matrices are dense column-major with leading dimension ld unless stated. */
typedef struct dk_problem_vtbl {
  uint32_t struct_size;
  void (*destroy)(void* self);
  const dk_problem_info* (*info)(const void* self);
  dk_eval (*initial_values)(void* self, double* y0, double* yp0); /* yp0 may be NULL */
  dk_eval (*rhs)(void* self, double t, const double* y, double* f);
  dk_eval (*jacobian)(void* self, double t, const double* y, double* dfdy, size_t ld);
  dk_eval (*jacobian_sparse)(void* self, double t, const double* y, double* values);
  dk_eval (*dfdt)(void* self, double t, const double* y, double* dfdt);
  dk_eval (*mass)(void* self, double t, const double* y, double* m, size_t ld);
  dk_eval (*residual)(void* self, double t, const double* y, const double* yp, double* r);
  /* dF/dy + cj dF/dy' */
  dk_eval (*residual_jacobian)(void* self, double t, const double* y, const double* yp,
                               double cj, double* j, size_t ld);
  dk_eval (*reference)(const void* self, double* yref);
  size_t (*last_error)(const void* self, char* buffer, size_t size);
  /* ABI 1.2: every entry optional, read only when struct_size covers it */
  dk_eval (*mass_diagonal)(void* self, double t, const double* y, double* d);     /* n values */
  dk_eval (*mass_sparse)(void* self, double t, const double* y, double* values);  /* mass_pattern order */
  dk_eval (*roots)(void* self, double t, const double* y, const double* yp, double* g); /* nroots values */
  dk_eval (*next_time_event)(void* self, double t, double* t_next); /* +inf: none after t */
  /* May change y and y' in place; sets *action to DK_EVENT_*. y' is NULL for solvers
     that keep none. */
  dk_eval (*on_event)(void* self, const dk_event* event, double* y, double* yp, uint32_t* action);
  dk_eval (*reference_at)(const void* self, double t, double* yref);
  dk_eval (*jacobian_vector)(void* self, double t, const double* y, const double* v, double* jv);
  /* After every accepted step that no event cut short, at its end (t, y); sets *action to
     DK_EVENT_CONTINUE, DK_EVENT_STOP or DK_EVENT_HANDLE. Called by solvers that claim
     DK_SOLVER_STEP_NOTIFICATION, only for problems with DK_PROBLEM_STEP_NOTIFICATION. */
  dk_eval (*step_completed)(void* self, double t, const double* y, uint32_t* action);
  /* The outputs which[0 .. count) (indices into output_names) at (t, y), a point the solver
     reports; the host calls it as the points arrive, so discrete values are those of the
     point's mode. */
  dk_eval (*outputs)(void* self, double t, const double* y, size_t count, const uint32_t* which,
                     double* values);
  /* ABI 1.3, parameters and sensitivities (part B); every entry optional but set_p, which a
     problem with np > 0 must have. */
  dk_eval (*set_p)(void* self, const double* p);  /* np values; later evaluations use them */
  /* df/dp at (t, y): n x np column-major (ld = n), or the dfdp_pattern's values */
  dk_eval (*dfdp)(void* self, double t, const double* y, double* out);
  /* dF/dp at (t, y, y') for residual-form problems, laid out as dfdp */
  dk_eval (*residual_dfdp)(void* self, double t, const double* y, const double* yp, double* out);
  /* (df/dy) s for ns columns s (n x ns column-major) in one pass */
  dk_eval (*jacobian_sens)(void* self, double t, const double* y, size_t ns, const double* s, double* js);
  /* dg/dy (nroots x n) and dg/dp (nroots x np) at (t, y), column-major; g's explicit
     t-dependence the solver differences itself. Sensitivities through root events need it. */
  dk_eval (*roots_dgdp)(void* self, double t, const double* y, double* dgdy, double* dgdp);
  /* The derivatives of the reset y+ = R(y-, p) that on_event has just applied at `event`:
     dR/dy (n x n) and dR/dp (n x np), column-major, at the left limit y = y-. Called after
     on_event changed y, when sensitivities are integrated; without it such a run ends
     with an error at that event (a reaction that leaves y unchanged is R = identity). */
  dk_eval (*event_derivatives)(void* self, const dk_event* event, const double* y, double* dRdy,
                               double* dRdp);
  /* ABI 1.3, Krylov linear solvers (part D); every entry optional. The Newton matrix of every
     family is written M - gamma J (gamma = h gamma_ii in a Rosenbrock or Radau stage, 1/cj in
     BDF and IDA), so one preconditioner serves them all. */
  /* (dF/dy + cj dF/dy') v at (t, y, y'), for residual-form problems (jacobian_vector's twin) */
  dk_eval (*residual_jacobian_vector)(void* self, double t, const double* y, const double* yp,
                                      double cj, const double* v, double* out);
  /* Prepares prec_solve for M - gamma J near (t, y). On entry *jac_current is 1 when the
     solver wants the Jacobian information re-evaluated at (t, y), 0 when what an earlier
     call evaluated may be reused with the new gamma; on return 1 when it was evaluated now. */
  dk_eval (*prec_setup)(void* self, double t, const double* y, double gamma, int32_t* jac_current);
  /* z ~ (M - gamma J)^-1 r with the data of the last prec_setup; delta is the accuracy the
     Krylov method needs of it (weighted 2-norm of the residual), which it may ignore. */
  dk_eval (*prec_solve)(void* self, double t, const double* y, const double* r, double* z,
                        double gamma, double delta);
  /* ABI 1.3, distributed problems (part E): with info->distribution. y_local has n_local +
     nghost values (owned, then ghosts), every output n_local (owned rows). rhs_local is
     required of a distributed problem; the others optional. */
  dk_eval (*rhs_local)(void* self, double t, const double* y_local, double* f);
  /* df/dy's owned rows in the distribution's pattern order (jac_nnz values) */
  dk_eval (*jacobian_local)(void* self, double t, const double* y_local, double* values);
  /* the owned rows' diagonal of a constant diagonal M (mass_kind DK_MASS_CONSTANT) */
  dk_eval (*mass_diagonal_local)(void* self, double* d);
} dk_problem_vtbl;

typedef struct dk_problem {
  const dk_problem_vtbl* vtbl;
  void* self;
} dk_problem;

/* Factory of a problem plugin. Returns 0 and fills *out, or non-zero with a message in err. */
typedef int32_t (*dk_problem_entry_fn)(const dk_host* host, const dk_keyval* params,
                                       size_t nparams, dk_problem* out, char* err,
                                       size_t err_size);

/* ----------------------------------------------------------------------------------
 * Solvers
 * ---------------------------------------------------------------------------------- */

typedef enum {
  DK_STATUS_SUCCESS = 0,
  DK_STATUS_STOPPED_BY_OBSERVER = 1,
  DK_STATUS_STOPPED_BY_EVENT = 2, /* ABI 1.2: a terminal root or DK_EVENT_STOP; t_reached says where */
  DK_STATUS_INVALID_INPUT = -1,
  DK_STATUS_TOO_MANY_STEPS = -2,
  DK_STATUS_STEP_SIZE_TOO_SMALL = -3,
  DK_STATUS_SINGULAR_MATRIX = -4,
  DK_STATUS_ERROR_TEST_FAILURES = -5,
  DK_STATUS_CONVERGENCE_FAILURES = -6,
  DK_STATUS_EVALUATION_FAILURE = -7,
  DK_STATUS_INCONSISTENT_INITIAL_VALUES = -8,
  DK_STATUS_TOLERANCES_TOO_SMALL = -9,
  DK_STATUS_UNSUPPORTED_PROBLEM = -10,
  DK_STATUS_TOO_MANY_EVENTS = -11, /* ABI 1.2: more than max_events events (chattering) */
  DK_STATUS_INTERNAL_ERROR = -99
} dk_status;

#define DK_SOLVER_DENSE_OUTPUT (1u << 0)
#define DK_SOLVER_SPARSE (1u << 1)
#define DK_SOLVER_BANDED (1u << 2)
/* ABI 1.2 */
#define DK_SOLVER_EVENTS (1u << 3)       /* root functions, time events, on_event */
#define DK_SOLVER_CONSTRAINTS (1u << 4)  /* sign constraints on components */
#define DK_SOLVER_MASS_STORAGE (1u << 5) /* diagonal and sparse mass storage without a dense copy */
#define DK_SOLVER_KEEP_DENSE (1u << 6)   /* dk_solver_vtbl.dense after a solve with keep_dense */
#define DK_SOLVER_STEP_NOTIFICATION (1u << 7) /* calls step_completed after every accepted step of a
                                                 problem with DK_PROBLEM_STEP_NOTIFICATION */
/* ABI 1.3 */
#define DK_SOLVER_EVENT_SAMPLING (1u << 8) /* samples root functions inside every step (event_samples)
                                              and bounds steps by root_time_scale */
#define DK_SOLVER_SENSITIVITIES (1u << 9)  /* forward sensitivities dy/dp and dy/dy0 (nsens, sens) */
#define DK_SOLVER_ADJOINT (1u << 10)       /* the gradient of a functional by adjoints (adjoint, gradient) */
#define DK_SOLVER_DISTRIBUTED (1u << 11)   /* solves a problem whose rows are spread over MPI ranks
                                              (dk_problem_info.distribution) on all of them at once */

typedef struct dk_option_desc {
  const char* key;
  const char* type; /* "int", "real", "bool", "choice:a|b|c", "string" */
  const char* default_value;
  const char* help;
} dk_option_desc;

typedef struct dk_solver_info {
  uint32_t struct_size;
  const char* name;
  const char* description;
  uint32_t max_mass_kind;       /* highest dk_mass_kind accepted */
  uint32_t residual_form;       /* 1 if residual-only problems are accepted */
  int32_t max_dae_index;        /* 0 = ODEs only */
  uint32_t flags;               /* DK_SOLVER_* */
  int32_t order;                /* classical order (max order for variable-order methods) */
  size_t noptions;
  const dk_option_desc* options;
} dk_solver_info;

typedef enum { DK_OUTPUT_END = 0, DK_OUTPUT_EVERY_STEP = 1, DK_OUTPUT_SAVEAT = 2 } dk_output_mode;
typedef enum { DK_JACOBIAN_AUTO = 0, DK_JACOBIAN_ANALYTIC = 1, DK_JACOBIAN_FINITE_DIFFERENCE = 2 } dk_jacobian_source;
typedef enum {
  DK_LINEAR_ALGEBRA_UNKNOWN = 0,
  DK_LINEAR_ALGEBRA_DENSE = 1,
  DK_LINEAR_ALGEBRA_SPARSE = 2,
  DK_LINEAR_ALGEBRA_KRYLOV = 3 /* ABI 1.3: a Krylov method, no LU of the Newton matrix */
} dk_linear_algebra;
typedef enum {
  DK_INIT_CHECK = 0,         /* verify the algebraic equations at t0; fail with a precise message */
  DK_INIT_FIX_ALGEBRAIC = 1, /* compute consistent algebraic components */
  DK_INIT_TRUST = 2          /* skip the check (benchmarks with known-consistent data) */
} dk_init_policy;

typedef struct dk_solve_options {
  uint32_t struct_size;
  double t0, tend;
  const double* y0;  /* n entries */
  const double* yp0; /* n entries or NULL */
  size_t nrtol;      /* 1 (scalar) or n */
  const double* rtol;
  size_t natol;      /* 1 (scalar) or n */
  const double* atol;
  double h0;   /* 0: automatic */
  double hmin; /* 0: automatic (a few ulps of t) */
  double hmax; /* 0: |tend - t0| */
  int64_t max_steps;
  uint32_t output_mode; /* dk_output_mode */
  size_t nsaveat;
  const double* saveat;
  uint32_t jacobian;    /* dk_jacobian_source */
  uint32_t init;        /* dk_init_policy */
  uint32_t index_scaling;      /* 1: scale errors of index-k components by h^(k-1) */
  uint32_t suppress_algebraic; /* 1: leave algebraic components out of the error test */
  size_t ntstops;
  const double* tstops; /* never step across these */
  size_t nextra;
  const dk_keyval* extra; /* plugin-specific options, checked against dk_solver_info.options */
  /* ABI 1.2: read only when struct_size covers them */
  int64_t max_events;     /* status DK_STATUS_TOO_MANY_EVENTS beyond this many events; 0: 1000 */
  uint32_t keep_dense;    /* keep the dense output for dk_solver_vtbl.dense after the solve */
  const struct dk_event_sink* events; /* where events and the limits of resets go, or NULL */
  /* ABI 1.3: read only when struct_size covers them */
  int32_t event_samples;     /* interior points of each accepted step where the root functions are
                                sampled: 0 the default (DK_DEFAULT_EVENT_SAMPLES), -1 none */
  uint32_t derivative_check; /* DK_DERIVATIVE_CHECK_*: supplied derivatives compared with
                                differences at run time */
  size_t nsens;                /* forward sensitivities wanted: columns of s = dy/dq (0: none) */
  const int32_t* sens_index;   /* nsens entries: q_k = p_i for i >= 0, the initial value y0_i for -1 - i */
  uint32_t sens_error_control; /* DK_SENS_ERROR_CONTROL_*: s in the local error test (as CVODES' errconS) */
  const struct dk_sens_sink* sens; /* where s goes, at every point the output sink gets; NULL: nowhere */
  const double* sens_initial;  /* n x nsens column-major, or NULL: s(t0) where y0 depends on a parameter
                                  (the host differences initial_values in p); NULL: e_i for y0_i, 0 for p */
  /* ABI 1.3, adjoints (docs/abi-1.3-design.md part C): the gradient of one scalar G of the
     solution with respect to all np real parameters (and y0), at a cost independent of np. */
  const struct dk_functional* adjoint; /* G, or NULL: no adjoint */
  double* gradient;          /* np values: dG/dp with y0 held fixed, written by a solver claiming
                                DK_SOLVER_ADJOINT (where y0 depends on p, the caller adds
                                gradient_y0 . dy0/dp, as the library does) */
  double* gradient_y0;       /* n values or NULL: dG/dy0 */
  double* functional_value;  /* G itself, or NULL */
} dk_solve_options;

#define DK_SENS_ERROR_CONTROL_DEFAULT 0u /* off, as CVODES and IDAS (errconS = SUNFALSE) */
#define DK_SENS_ERROR_CONTROL_ON 1u
#define DK_SENS_ERROR_CONTROL_OFF 2u

/* Sensitivities beside the output (ABI 1.3): s is n x ns column-major, column k = dy/dq_k. */
typedef struct dk_sens_sink {
  uint32_t struct_size;
  void* env;
  /* at the same t as the output sink's emit just before; returns 0 to go on, 1 to stop */
  int32_t (*emit)(void* env, double t, const double* s, size_t n, size_t ns);
} dk_sens_sink;
#define DK_DEFAULT_EVENT_SAMPLES 10
#define DK_DERIVATIVE_CHECK_DEFAULT 0u /* on */
#define DK_DERIVATIVE_CHECK_ON 1u
#define DK_DERIVATIVE_CHECK_OFF 2u

/* The scalar whose gradient an adjoint solve returns (ABI 1.3):
     G = phi(y(T), p) + integral of g(t, y, p) over [t0, T] + sum over k of r_k^2 / 2,
   r_k = data_term k at data_t[k], T = tend. Every member but struct_size and env may be
   NULL or 0 (absent). The callbacks return 0, or non-zero with the solve then failing;
   the parameters are the problem's present ones (the functional's owner knows them). */
typedef struct dk_functional {
  uint32_t struct_size;
  void* env;
  /* phi and its gradients: dphidy n values, dphidp np values */
  int32_t (*terminal)(void* env, const double* y, double* phi, double* dphidy, double* dphidp);
  /* g at (t, y) and its gradients, likewise */
  int32_t (*running)(void* env, double t, const double* y, double* g, double* dgdy, double* dgdp);
  size_t ndata;
  const double* data_t;  /* ndata times inside the span, in the direction of integration (repeats allowed) */
  /* r_k at y(data_t[k]) and its gradients (a weighted residual: (h(y) - d_k) / sigma_k) */
  int32_t (*data_term)(void* env, size_t k, const double* y, double* r, double* drdy, double* drdp);
} dk_functional;

typedef struct dk_stats {
  int64_t steps;    /* attempted steps */
  int64_t accepted;
  int64_t rejected; /* error-test rejections */
  int64_t nfev;     /* right-hand side or residual evaluations, all purposes */
  int64_t nfev_jac; /* of which for finite-difference Jacobians */
  int64_t njac;     /* Jacobian evaluations (analytic or finite difference) */
  int64_t nlu;      /* LU factorisations */
  int64_t nsolve;   /* linear back-solves */
  int64_t nnewton;  /* Newton iterations */
  int64_t nnewton_fail;
  int64_t nsingular; /* singular iteration matrices met */
  int64_t nmass;     /* mass matrix evaluations */
  int32_t order_last;
  int32_t jacobian_used; /* dk_jacobian_source actually used */
  double h_last;
  double wall_s;
  int64_t njac_reused; /* steps that reused an older Jacobian (W-methods) */
  int32_t linear_algebra; /* dk_linear_algebra: the LUs the solver used (ABI 1.1) */
  /* ABI 1.2 */
  int64_t nfailed_eval; /* model evaluations that failed (recoverable, fatal or non-finite) */
  int64_t nevents;      /* events handled (on_event calls) */
  int64_t nroot_evals;  /* evaluations of the root functions */
  int64_t nconstraint_fails; /* steps rejected because they ended outside a sign constraint */
  /* ABI 1.3 */
  int64_t nroots_fired;          /* root functions that fired (several at one event count apart) */
  int64_t nderivative_checks;    /* run-time comparisons of supplied derivatives with differences */
  int64_t nderivative_mismatches; /* of which disagreed (the solver then used differences) */
  int64_t nfev_sens;         /* f or F evaluations made for sensitivities (also counted in nfev) */
  int64_t nsolve_sens;       /* linear back-solves made for sensitivities (also counted in nsolve) */
  int64_t nsens_error_fails; /* steps rejected because of the sensitivities' error alone */
  /* ABI 1.3, Krylov linear solvers */
  int64_t nlin_iters;      /* Krylov iterations */
  int64_t nlin_conv_fails; /* linear solves that ended before their tolerance */
  int64_t njtv;            /* Jacobian-vector products (analytic, dual or differences) */
  int64_t nprec_setups;    /* preconditioner setups */
  int64_t nprec_solves;    /* preconditioner applications */
} dk_stats;

typedef struct dk_result {
  uint32_t struct_size;
  int32_t status; /* dk_status */
  double t_reached;
  char message[1024];
  dk_stats stats; /* grows at its end, so it stays the last member */
} dk_result;

/* Output: every point the solver reports (the end, every step, or requested times). */
typedef struct dk_output_sink {
  void* env;
  /* returns 0 to go on, 1 to stop the integration */
  int32_t (*emit)(void* env, double t, const double* y, size_t n);
} dk_output_sink;

/* Events as they are handled (ABI 1.2); a sink's entries may be NULL. */
typedef struct dk_event_sink {
  uint32_t struct_size;
  void* env;
  /* every event, after on_event has said what follows; returns 0 to go on, 1 to stop */
  int32_t (*event)(void* env, const dk_event* event, uint32_t action);
  /* a point at an event: mark 1 the left limit (before on_event), 2 the right limit (after) */
  int32_t (*emit_marked)(void* env, double t, const double* y, size_t n, uint32_t mark);
} dk_event_sink;
#define DK_MARK_LEFT_LIMIT 1u
#define DK_MARK_RIGHT_LIMIT 2u

typedef struct dk_solver_vtbl {
  uint32_t struct_size;
  void (*destroy)(void* self);
  const dk_solver_info* (*info)(const void* self);
  int32_t (*solve)(void* self, const dk_problem* problem, const dk_solve_options* options,
                   const dk_output_sink* sink, dk_result* result);
  /* ABI 1.2, optional: y(t) from the last solve's kept dense output (keep_dense), for t
     between t0 and t_reached; returns 0, or non-zero when t is outside or nothing is kept */
  int32_t (*dense)(void* self, double t, double* y);
} dk_solver_vtbl;

typedef struct dk_solver {
  const dk_solver_vtbl* vtbl;
  void* self;
} dk_solver;

typedef int32_t (*dk_solver_entry_fn)(const dk_host* host, dk_solver* out, char* err,
                                      size_t err_size);

/* ----------------------------------------------------------------------------------
 * Reading structs written against an older minor
 * ---------------------------------------------------------------------------------- */

/* Non-zero when the struct *s (of type T, starting with struct_size) holds `field`. */
#define DK_HAS_FIELD(s, T, field) ((s)->struct_size >= offsetof(T, field) + sizeof(((const T*)0)->field))

/* The rows this rank owns (ABI 1.3 part E), or NULL: the problem is whole in this
   process, or its description predates the field. */
static inline const dk_distribution* dk_distribution_of(const dk_problem_info* info) {
  return DK_HAS_FIELD(info, dk_problem_info, distribution) ? info->distribution : NULL;
}

/* How many entries the per-row data of a problem's description and of its solves has:
   n_local for a distribution with local_rows, else n. */
static inline size_t dk_rows_held(const dk_problem_info* info) {
  const dk_distribution* d = dk_distribution_of(info);
  return d && DK_HAS_FIELD(d, dk_distribution, local_rows) && d->local_rows ? d->n_local : info->n;
}

/* The smallest sizes a reader accepts: those of ABI 1.0/1.1 (each struct ends where the
   1.2 fields begin). Fields of 1.2 and 1.3 are tested with DK_HAS_FIELD. */
#define DK_MIN_SIZE_PROBLEM_INFO offsetof(dk_problem_info, mass_storage)
#define DK_MIN_SIZE_PROBLEM_VTBL offsetof(dk_problem_vtbl, mass_diagonal)
#define DK_MIN_SIZE_SOLVER_VTBL offsetof(dk_solver_vtbl, dense)
#define DK_MIN_SIZE_SOLVE_OPTIONS offsetof(dk_solve_options, max_events)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DAEKIT_ABI_H */
