// For the modules that run a library on MPI inside one daekit process (hypre's AMG, PETSc):
// MPI started once in Open MPI's singleton mode where no launcher started it, and finished
// at exit; in a rank of an MPI job it is started already and left to the job. Header-only:
// included only where <mpi.h> is, never by the core library itself.
#pragma once

#include <mpi.h>

#include <unistd.h>

#include <cstdlib>
#include <set>
#include <string>

#include "daekit/process_role.hpp"

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

// The names of this process's environment variables.
inline std::set<std::string> environment_names() {
  std::set<std::string> names;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    names.insert(text.substr(0, text.find('=')));
  }
  return names;
}

// False (with why) when MPI cannot be started or was finished already. Call once, then
// start the library on it; an atexit handler the library registers afterwards runs before
// MPI's.
inline bool start_singleton(const char** why) {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised) return *why = "MPI was finished already in this process", false;
  // A child the host forked from an MPI rank (a wpd or ensemble worker's point) inherits
  // the rank's MPI state, which does not survive fork: using it crashed in Open MPI's
  // shared-memory transport.
  if (initialised && is_child_process())
    return *why = "a solve in a child process of an MPI rank cannot use MPI (it does not survive fork)", false;
  if (initialised) return true;
  // A launcher started this process's parent (the host runs each solve in a child process):
  // MPI_Init here would claim the launched rank from a child that leaves without
  // MPI_Finalize, and the launcher would abort the job.
  if (launched_by_mpi() && is_child_process())
    return *why = "under an MPI launcher this solve must run in the launched process: add --in-process", false;
  // Started by no launcher, one process on MPI_COMM_SELF needs neither Open MPI's daemon
  // nor a network transport. Measured here, MPI_Init took 0.46 s as a plain singleton and
  // 0.05-0.09 s so (a run's whole cost on small problems). The user's own settings of
  // these stay (no overwrite).
  const std::set<std::string> before = environment_names();
  if (!launched_by_mpi()) {
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    setenv("OMPI_MCA_btl", "self", 0);
    setenv("OMPI_MCA_pml", "ob1", 0);
  }
  [[maybe_unused]] const NotOurLeaks quiet;
  int provided = 0;
  const int started = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  // The variables set above, and those Open MPI's singleton start sets for itself
  // (OMPI_MCA_ess=singleton, OMPI_MCA_pmix=isolated, ...), are this start's alone: a process
  // this one starts later (an `mpirun` of its own) inheriting them ran its ranks as
  // isolated singletons that could not reach each other.
  for (const std::string& name : environment_names())
    if (!before.count(name) && (name.rfind("OMPI_", 0) == 0 || name.rfind("PMIX_", 0) == 0 || name.rfind("ORTE_", 0) == 0))
      unsetenv(name.c_str());
  if (started != MPI_SUCCESS) return *why = "MPI_Init failed", false;
  std::atexit([] {
    int done = 0;
    MPI_Finalized(&done);
    [[maybe_unused]] const NotOurLeaks quiet_too;
    if (!done) MPI_Finalize();
  });
  return true;
}

}  // namespace daekit::mpi
