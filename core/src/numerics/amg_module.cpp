// hypre's BoomerAMG behind a C table, built as its own module (libdaekit_amg.so) that the
// core opens only when a run asks for preconditioner=amg: hypre runs on MPI, and neither
// should be loaded (nor MPI started) by the runs that do not use them.
//
// hypre needs MPI started. In a process that a launcher did not start, the module starts
// it itself (Open MPI's singleton mode, about 0.7 s here) and finishes it at exit; in a
// rank of an MPI job it is started already. Either way the matrix lives on MPI_COMM_SELF:
// one process, one problem (a distributed problem is docs/abi-1.3-design.md, part E).
#include <HYPRE.h>
#include <HYPRE_parcsr_ls.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "amg_module.hpp"
#include "daekit/numerics/mpi_singleton.hpp"


namespace {

using namespace daekit;

bool start_mpi(char* why, int why_len) {
  static const char* mpi_failure = nullptr;
  static int started = [] {
    if (!mpi::start_singleton(&mpi_failure)) return 0;
    [[maybe_unused]] const mpi::NotOurLeaks quiet;
    return HYPRE_Init() == 0 ? 1 : 0;
  }();
  if (!started)
    std::snprintf(why, static_cast<std::size_t>(why_len), "MPI (under hypre) could not start%s%s",
                  mpi_failure ? ": " : "", mpi_failure ? mpi_failure : "");
  return started != 0;
}

struct Amg {
  double strong_threshold = 0.25;
  int n = 0;
  HYPRE_IJMatrix matrix = nullptr;
  HYPRE_IJVector b = nullptr, x = nullptr;
  HYPRE_Solver solver = nullptr;
  std::vector<HYPRE_BigInt> rows, columns;
  std::vector<HYPRE_Int> row_sizes;
  std::vector<double> zeros;

  void release() {
    if (solver) HYPRE_BoomerAMGDestroy(solver);
    if (matrix) HYPRE_IJMatrixDestroy(matrix);
    if (b) HYPRE_IJVectorDestroy(b);
    if (x) HYPRE_IJVectorDestroy(x);
    solver = nullptr, matrix = nullptr, b = nullptr, x = nullptr;
  }
  ~Amg() { release(); }
};

HYPRE_IJVector make_vector(int n) {
  HYPRE_IJVector v = nullptr;
  HYPRE_IJVectorCreate(MPI_COMM_SELF, 0, n - 1, &v);
  HYPRE_IJVectorSetObjectType(v, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(v);
  HYPRE_IJVectorAssemble(v);
  return v;
}

void* create(double strong_threshold, char* why, int why_len) {
  if (!start_mpi(why, why_len)) return nullptr;
  auto* amg = new (std::nothrow) Amg;
  if (amg) amg->strong_threshold = strong_threshold;
  return amg;
}

void destroy(void* self) { delete static_cast<Amg*>(self); }

int setup(void* self, int n, const int* row_ptr, const int* col_idx, const double* values) {
  auto* amg = static_cast<Amg*>(self);
  amg->release();
  amg->n = n;
  amg->rows.resize(static_cast<std::size_t>(n));
  amg->row_sizes.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    amg->rows[static_cast<std::size_t>(i)] = i;
    amg->row_sizes[static_cast<std::size_t>(i)] = row_ptr[i + 1] - row_ptr[i];
  }
  amg->columns.assign(col_idx, col_idx + row_ptr[n]);
  amg->zeros.assign(static_cast<std::size_t>(n), 0.0);
  HYPRE_IJMatrixCreate(MPI_COMM_SELF, 0, n - 1, 0, n - 1, &amg->matrix);
  HYPRE_IJMatrixSetObjectType(amg->matrix, HYPRE_PARCSR);
  HYPRE_IJMatrixSetRowSizes(amg->matrix, amg->row_sizes.data());
  HYPRE_IJMatrixInitialize(amg->matrix);
  int code = HYPRE_IJMatrixSetValues(amg->matrix, n, amg->row_sizes.data(), amg->rows.data(), amg->columns.data(),
                                     values);
  code |= HYPRE_IJMatrixAssemble(amg->matrix);
  amg->b = make_vector(n);
  amg->x = make_vector(n);
  HYPRE_ParCSRMatrix a = nullptr;
  HYPRE_ParVector b = nullptr, x = nullptr;
  HYPRE_IJMatrixGetObject(amg->matrix, reinterpret_cast<void**>(&a));
  HYPRE_IJVectorGetObject(amg->b, reinterpret_cast<void**>(&b));
  HYPRE_IJVectorGetObject(amg->x, reinterpret_cast<void**>(&x));
  HYPRE_BoomerAMGCreate(&amg->solver);
  HYPRE_BoomerAMGSetPrintLevel(amg->solver, 0);
  HYPRE_BoomerAMGSetMaxIter(amg->solver, 1);  // a preconditioner: one V-cycle per application
  HYPRE_BoomerAMGSetTol(amg->solver, 0.0);
  HYPRE_BoomerAMGSetStrongThreshold(amg->solver, amg->strong_threshold);
  code |= HYPRE_BoomerAMGSetup(amg->solver, a, b, x);
  HYPRE_ClearAllErrors();
  return code == 0 ? 0 : 1;
}

int apply(void* self, const double* b, double* x) {
  auto* amg = static_cast<Amg*>(self);
  if (!amg->solver) return 1;
  HYPRE_IJVectorSetValues(amg->b, amg->n, amg->rows.data(), b);
  HYPRE_IJVectorSetValues(amg->x, amg->n, amg->rows.data(), amg->zeros.data());
  HYPRE_ParCSRMatrix a = nullptr;
  HYPRE_ParVector pb = nullptr, px = nullptr;
  HYPRE_IJMatrixGetObject(amg->matrix, reinterpret_cast<void**>(&a));
  HYPRE_IJVectorGetObject(amg->b, reinterpret_cast<void**>(&pb));
  HYPRE_IJVectorGetObject(amg->x, reinterpret_cast<void**>(&px));
  // One cycle does not reach a zero tolerance: hypre flags that as an error, which it is not here.
  HYPRE_BoomerAMGSolve(amg->solver, a, pb, px);
  HYPRE_ClearAllErrors();
  HYPRE_IJVectorGetValues(amg->x, amg->n, amg->rows.data(), x);
  return 0;
}

const daekit_amg_table table = {DAEKIT_AMG_TABLE_VERSION, &create, &destroy, &setup, &apply};

}  // namespace

extern "C" __attribute__((visibility("default"))) const daekit_amg_table* daekit_amg() { return &table; }
