#include "runtime.hpp"

#include <cstdarg>
#include <cstdio>
#include <daekit/numerics/mpi_singleton.hpp>

namespace daekit::plugins::petsc {
namespace {

std::string last_error;  // PETSc's message for the last error, kept by the handler below

PetscErrorCode keep_message(MPI_Comm, int, const char*, const char*, PetscErrorCode code, PetscErrorType type,
                            const char* message, void*) {
  if (type == PETSC_ERROR_INITIAL && message && *message) last_error = message;
  return code;
}

// Whatever PETSc prints (a -ts_monitor, -help asked for in petsc_options) goes to stderr:
// stdout carries the host's results (--report json), which it must not break.
PetscErrorCode to_stderr(FILE*, const char format[], va_list arguments) {
  std::vfprintf(stderr, format, arguments);
  return 0;
}

int finalize_with_mpi(MPI_Comm, int, void*, void*) {
  [[maybe_unused]] const mpi::NotOurLeaks quiet;
  PetscBool finalized = PETSC_TRUE;
  PetscFinalized(&finalized);
  if (!finalized) PetscFinalize();
  return MPI_SUCCESS;
}

}  // namespace

bool start_petsc(std::string* why) {
  static const char* mpi_failure = nullptr;
  static const bool started = [] {
    if (!mpi::start_singleton(&mpi_failure)) return false;
    [[maybe_unused]] const mpi::NotOurLeaks quiet;
    // The host reports crashes of a plugin run; PETSc's own handler would print over it.
    if (PetscOptionsSetValue(nullptr, "-no_signal_handler", nullptr) != 0) return false;
    // PETSc's world is this process alone: a rank of an MPI job (a wpd worker running
    // in-process) solves its own problem, and PetscInitialize's collectives on
    // MPI_COMM_WORLD would wait for the other ranks. A problem spread over ranks brings its
    // own communicator, on which its objects are made.
    PETSC_COMM_WORLD = MPI_COMM_SELF;
    if (PetscInitializeNoArguments() != 0) return false;
    PetscVFPrintf = &to_stderr;
    PetscPushErrorHandler(&keep_message, nullptr);
    // PETSc finishes as MPI does, whoever finishes MPI (our exit handler, or the host of a
    // run over MPI ranks before its own exit): MPI_Finalize deletes MPI_COMM_SELF's
    // attributes first, while MPI still works (MPI 4.0, 11.2.4), and this one's deletion
    // finalizes PETSc. An exit handler would run after the host's MPI_Finalize.
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &finalize_with_mpi, &keyval, nullptr);
    return MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr) == MPI_SUCCESS;
  }();
  if (!started)
    *why = mpi_failure ? std::string("PETSc's MPI could not start: ") + mpi_failure : "PETSc could not start";
  return started;
}

std::string error_text(PetscErrorCode code) {
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  std::string out = text ? text : "PETSc error " + std::to_string(static_cast<int>(code));
  if (!last_error.empty()) out += ": " + last_error;
  last_error.clear();
  return out;
}

}  // namespace daekit::plugins::petsc
