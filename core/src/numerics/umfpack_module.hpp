// The C table between the core and its UMFPACK module (umfpack_module.cpp): private to
// the core, versioned so that a stale module is refused rather than called wrongly.
#pragma once

extern "C" {

#define DAEKIT_UMFPACK_TABLE_VERSION 3
// UMFPACK_ERROR_out_of_memory (umfpack.h), which factor() passes on.
#define DAEKIT_UMFPACK_OUT_OF_MEMORY (-1)

struct daekit_umfpack_table {
  int version;
  void* (*create)(int complex);
  void (*destroy)(void* self);
  // CSC pattern of an n x n matrix; metis: nested dissection, else AMD/COLAMD. 0 on success.
  int (*analyze)(void* self, int n, const int* col_ptr, const int* row_idx, int metis);
  // Values in pattern order (complex ones interleaved). 0 on success, 1 when singular, or
  // UMFPACK's negative status when it could not factorise at all (-1: out of memory).
  int (*factor)(void* self, const double* values);
  // x = A^-1 b with the last factorisation (complex vectors interleaved). 0 on success.
  int (*solve)(void* self, const double* b, double* x);
  // Of the last factorisation: 0, the entries stored in L and U (L's unit diagonal not
  // counted); 1, the peak memory of the numeric factorisation in bytes. -1 when none.
  double (*footprint)(void* self, int which);
};

typedef const daekit_umfpack_table* (*daekit_umfpack_entry)();
}
