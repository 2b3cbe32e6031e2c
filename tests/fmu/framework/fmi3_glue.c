/* The FMI 3.0 model-exchange functions of a test FMU over model_core (types declared here
   from the FMI 3.0 standard's text; only what a model-exchange importer calls). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_core.h"

typedef void* fmi3Instance;
typedef void* fmi3InstanceEnvironment;
typedef uint32_t fmi3ValueReference;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment, fmi3Status, const char*, const char*);

#define EXPORT __attribute__((visibility("default")))

typedef struct {
  Instance core;
  fmi3LogMessageCallback log_message;
  fmi3InstanceEnvironment env;
} Fmi3Instance;

static void log_fmi3(Instance* self, int status, const char* category, const char* message) {
  Fmi3Instance* inst = (Fmi3Instance*)self;
  if (!self->logging && status < fmi3Error) return;
  if (inst->log_message) inst->log_message(inst->env, (fmi3Status)status, category, message);
}

static fmi3Status done(int failed) { return failed ? fmi3Error : fmi3OK; }

EXPORT const char* fmi3GetVersion(void) { return "3.0"; }

EXPORT fmi3Instance fmi3InstantiateModelExchange(const char* name, const char* token, const char* resources,
                                                 bool visible, bool logging, fmi3InstanceEnvironment env,
                                                 fmi3LogMessageCallback log_message) {
  (void)resources;
  (void)visible;
  if (!token || strcmp(token, model_spec.token) != 0) {
    if (log_message) log_message(env, fmi3Error, "logStatusError", "the instantiation token does not match this binary's");
    return NULL;
  }
  Fmi3Instance* inst = (Fmi3Instance*)calloc(1, sizeof(Fmi3Instance));
  if (!inst) return NULL;
  inst->log_message = log_message;
  inst->env = env;
  inst->core.name = name;
  inst->core.logging = logging;
  inst->core.log = log_fmi3;
  core_reset(&inst->core);
  log_fmi3(&inst->core, fmi3OK, "logEvents", "instantiated");
  return inst;
}

EXPORT void fmi3FreeInstance(fmi3Instance c) { free(c); }
EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance c, bool tol_defined, double tol, double start,
                                              bool stop_defined, double stop) {
  (void)tol_defined;
  (void)tol;
  (void)stop_defined;
  (void)stop;
  ((Instance*)c)->time = start;
  return fmi3OK;
}
EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance c) {
  ((Instance*)c)->initial_update = 1;
  log_fmi3((Instance*)c, fmi3OK, "logEvents", "initialised");
  return fmi3OK;
}
EXPORT fmi3Status fmi3Terminate(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}
EXPORT fmi3Status fmi3Reset(fmi3Instance c) {
  core_reset((Instance*)c);
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n, double value[],
                                 size_t n_values) {
  return core_get_elements((Instance*)c, vr, n, value, n_values) == 0 ? fmi3OK : fmi3Error;
}
EXPORT fmi3Status fmi3SetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n, const double value[],
                                 size_t n_values) {
  return core_set_elements((Instance*)c, vr, n, value, n_values) == 0 ? fmi3OK : fmi3Error;
}
/* Integers and booleans live in the same table as doubles. */
#define FMI3_CONVERTED(NAME, TYPE, FROM_DOUBLE)                                                               \
  EXPORT fmi3Status fmi3Get##NAME(fmi3Instance c, const fmi3ValueReference vr[], size_t n, TYPE value[],      \
                                  size_t n_values) {                                                         \
    double v[MAX_REALS];                                                                                     \
    if (n_values > MAX_REALS || core_get_elements((Instance*)c, vr, n, v, n_values) != 0) return fmi3Error;  \
    for (size_t i = 0; i < n_values; ++i) value[i] = FROM_DOUBLE(v[i]);                                      \
    return fmi3OK;                                                                                           \
  }                                                                                                          \
  EXPORT fmi3Status fmi3Set##NAME(fmi3Instance c, const fmi3ValueReference vr[], size_t n, const TYPE value[], \
                                  size_t n_values) {                                                         \
    double v[MAX_REALS];                                                                                     \
    if (n_values > MAX_REALS) return fmi3Error;                                                              \
    for (size_t i = 0; i < n_values; ++i) v[i] = (double)value[i];                                           \
    return core_set_elements((Instance*)c, vr, n, v, n_values) == 0 ? fmi3OK : fmi3Error;                    \
  }
#define AS_INT32(x) ((int32_t)(x))
#define AS_BOOL(x) ((x) != 0.0)
FMI3_CONVERTED(Int32, int32_t, AS_INT32)
FMI3_CONVERTED(Boolean, bool, AS_BOOL)
EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}
EXPORT fmi3Status fmi3UpdateDiscreteStates(fmi3Instance c, bool* again, bool* terminate, bool* nominals_changed,
                                           bool* values_changed, bool* next_defined, double* next_time) {
  Instance* self = (Instance*)c;
  EventOutcome out;
  core_update(self, self->initial_update, &out);
  self->initial_update = 0;
  *again = false;
  *terminate = out.terminate != 0;
  *nominals_changed = false;
  *values_changed = out.states_changed != 0;
  *next_defined = out.next_time_defined != 0;
  *next_time = out.next_time;
  if (out.states_changed) log_fmi3(self, fmi3OK, "logEvents", "event: states changed");
  return fmi3OK;
}
EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}
EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance c, bool no_set_prior, bool* enter_event, bool* terminate) {
  (void)no_set_prior;
  int enter = 0, stop = 0;
  core_completed_step((Instance*)c, &enter, &stop);
  *enter_event = enter != 0;
  *terminate = stop != 0;
  if (stop) log_fmi3((Instance*)c, fmi3OK, "logEvents", "the model asks to terminate");
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetTime(fmi3Instance c, double t) {
  ((Instance*)c)->time = t;
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance c, const double x[], size_t n) {
  Instance* self = (Instance*)c;
  if (n != model_spec.n_states) return fmi3Error;
  for (size_t i = 0; i < n; ++i) self->r[model_spec.states[i]] = x[i];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance c, double x[], size_t n) {
  Instance* self = (Instance*)c;
  if (n != model_spec.n_states) return fmi3Error;
  for (size_t i = 0; i < n; ++i) x[i] = self->r[model_spec.states[i]];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance c, double dx[], size_t n) {
  return done(core_derivatives((Instance*)c, dx, n));
}
EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance c, double z[], size_t n) {
  return done(core_indicators((Instance*)c, z, n));
}
EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance c, size_t* n) {
  (void)c;
  *n = model_spec.n_states;
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance c, size_t* n) {
  (void)c;
  *n = model_spec.n_indicators;
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetDirectionalDerivative(fmi3Instance c, const fmi3ValueReference unknowns[], size_t nu,
                                               const fmi3ValueReference knowns[], size_t nk, const double seed[],
                                               size_t n_seed, double sensitivity[], size_t n_sensitivity) {
  if (n_seed != nk || n_sensitivity != nu) return fmi3Error;
  return done(core_directional((Instance*)c, unknowns, nu, knowns, nk, seed, sensitivity));
}
