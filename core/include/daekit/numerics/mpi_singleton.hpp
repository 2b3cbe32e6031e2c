// For the modules that run a library on MPI inside one daekit process (hypre's AMG, PETSc):
// MPI started once in Open MPI's singleton mode where no launcher started it, and finished
// at exit; in a rank of an MPI job it is started already and left to the job. Header-only:
// included only where <mpi.h> is, never by the core library itself.
#pragma once

#include <mpi.h>

#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace daekit::mpi {

// Open MPI (and what runs on it) keeps what its start allocates to the end and unloads its
// components at MPI_Finalize, after which LeakSanitizer cannot even name their frames:
// their start and finish are not ours to check, so the sanitizer build does not count
// them as leaks. (Everything a module itself allocates is still checked.)
struct NotOurLeaks {
#if defined(__SANITIZE_ADDRESS__)
  NotOurLeaks() { __lsan_disable(); }
  ~NotOurLeaks() { __lsan_enable(); }
#endif
};

// False when MPI cannot be started (or was finished already). Call once, then start the
// library on it; an atexit handler the library registers afterwards runs before MPI's.
inline bool start_singleton() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised) return false;
  if (initialised) return true;
  [[maybe_unused]] const NotOurLeaks quiet;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return false;
  std::atexit([] {
    int done = 0;
    MPI_Finalized(&done);
    [[maybe_unused]] const NotOurLeaks quiet_too;
    if (!done) MPI_Finalize();
  });
  return true;
}

}  // namespace daekit::mpi
