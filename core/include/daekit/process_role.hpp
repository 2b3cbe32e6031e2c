// What a process is to the MPI launcher that may have started it. The host runs each solve
// in a child process it forks (host/child_process.cpp) and marks it with this environment
// variable: a child inherits the launcher's environment but is not the launched process,
// so it must not start MPI as that process's rank (numerics/mpi_singleton.hpp).
#pragma once

#include <cstdlib>

namespace daekit {

inline constexpr const char* child_process_variable = "DAEKIT_CHILD_PROCESS";

inline bool is_child_process() { return std::getenv(child_process_variable) != nullptr; }

// Whether an MPI launcher started this process (or the one it was forked from): Open MPI's
// mpirun, MPICH's hydra and Slurm's PMI2, PMIx (srun --mpi=pmix, prterun).
inline bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace daekit
