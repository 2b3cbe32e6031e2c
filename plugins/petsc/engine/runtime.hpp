// PETSc in a daekit process: started once (with the MPI it runs on, unless a launcher
// started MPI), quiet (its errors are returned and reported by the solve, not printed;
// no signal handler of its own), and finished at exit.
#pragma once

#include <petscsys.h>

#include <string>

namespace daekit::plugins::petsc {

// False with why when PETSc (or MPI under it) cannot start.
bool start_petsc(std::string* why);

// PETSc's text for `code` (and the last error's own message where PETSc kept one).
std::string error_text(PetscErrorCode code);

}  // namespace daekit::plugins::petsc
