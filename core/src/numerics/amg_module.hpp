// The C table between the core and its algebraic-multigrid module (amg_module.cpp, hypre's
// BoomerAMG): private to the core, versioned so that a stale module is refused.
#pragma once

extern "C" {

#define DAEKIT_AMG_TABLE_VERSION 1

struct daekit_amg_table {
  int version;
  // NULL, with why, when hypre (or the MPI it runs on) cannot start.
  void* (*create)(double strong_threshold, char* why, int why_len);
  void (*destroy)(void* self);
  // The hierarchy for the n x n matrix in CSR (row_ptr n + 1 entries). 0 on success.
  int (*setup)(void* self, int n, const int* row_ptr, const int* col_idx, const double* values);
  // x = one V-cycle from x = 0 on A x = b. 0 on success.
  int (*apply)(void* self, const double* b, double* x);
};

typedef const daekit_amg_table* (*daekit_amg_entry)();
}
