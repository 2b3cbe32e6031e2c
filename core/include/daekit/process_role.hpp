// What a process is to the MPI launcher that may have started it. The host runs each solve
// in a child process it forks (host/child_process.cpp) and marks it with this environment
// variable: a child inherits the launcher's environment but is not the launched process,
// so it must not start MPI as that process's rank (numerics/mpi_singleton.hpp).
#pragma once

#include <cstdlib>

namespace daekit {

inline constexpr const char* child_process_variable = "DAEKIT_CHILD_PROCESS";

inline bool is_child_process() { return std::getenv(child_process_variable) != nullptr; }

}  // namespace daekit
