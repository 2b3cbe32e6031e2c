/* The test FMUs' common core: a model is a table of variables held as doubles (the value
   reference is the index; integers and booleans too, converted by their getters and setters), some of them continuous states with their derivatives, and functions
   for its derivatives, event indicators, event update and Jacobian. The FMI 2.0 and 3.0
   glue (fmi2_glue.c, fmi3_glue.c) turn this into the standard's functions; a model file
   (models/) defines only `model_spec`. */
#ifndef DAEKIT_TEST_FMU_MODEL_CORE_H
#define DAEKIT_TEST_FMU_MODEL_CORE_H

#include <stddef.h>

#define MAX_REALS 32

typedef struct Instance Instance;

typedef struct {
  int states_changed;   /* the update changed continuous states */
  int terminate;        /* the model asks to stop */
  int next_time_defined;
  double next_time;
} EventOutcome;

typedef struct {
  const char* token;         /* guid / instantiationToken, as in modelDescription.xml */
  size_t n_reals, n_states, n_indicators;
  const unsigned* states;      /* n_states value references */
  const unsigned* derivatives; /* n_states value references */
  void (*start)(double* r);    /* start values of every variable */
  /* Fills the derivative variables from the states and parameters; non-zero: an error
     whose text is in *message. */
  int (*derivatives_of)(double t, double* r, const char** message);
  void (*indicators)(double t, const double* r, double* z);
  /* At initialisation (initial = 1) and at every event: discrete updates. */
  void (*update)(double t, double* r, int initial, EventOutcome* out);
  /* df/dy (n_states x n_states, row-major), or NULL: no directional derivatives. */
  void (*jacobian)(double t, const double* r, double* j);
  /* After an accepted step (completedIntegratorStep), or NULL: nothing to say. */
  void (*completed_step)(double t, double* r, int* enter_event_mode, int* terminate);
  /* FMI 3.0 arrays: per value reference, how many slots from it on the variable holds (its
     elements, row-major); NULL: every variable is a scalar. states/derivatives list one
     slot per element. */
  const unsigned* sizes;
} ModelSpec;

extern const ModelSpec model_spec;

struct Instance {
  double r[MAX_REALS];
  double time;
  int logging;
  int initial_update;  /* the next event update is the one after initialisation */
  const char* name;
  void (*log)(Instance* self, int status, const char* category, const char* message);
  void* env;
  void* log_function;
};

/* Shared steps of both versions. Return 0 on success, else an error (already logged). */
void core_reset(Instance* self);
int core_derivatives(Instance* self, double* dx, size_t n);
int core_indicators(Instance* self, double* z, size_t n);
/* Variables' values, each variable's slots in turn (one for a scalar): n_values in all. */
int core_get_elements(Instance* self, const unsigned* vr, size_t n, double* value, size_t n_values);
int core_set_elements(Instance* self, const unsigned* vr, size_t n, const double* value, size_t n_values);
void core_update(Instance* self, int initial, EventOutcome* out);
int core_directional(Instance* self, const unsigned* unknowns, size_t nu, const unsigned* knowns, size_t nk,
                     const double* seed, double* out);
int core_valid_reference(const Instance* self, unsigned vr);
void core_completed_step(Instance* self, int* enter_event_mode, int* terminate);

#endif
