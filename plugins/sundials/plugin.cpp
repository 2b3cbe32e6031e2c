// The SUNDIALS adapters: IDA for residual and mass-matrix DAEs, CVODE for ODEs.
#include <daekit/sdk/export_solver.hpp>

#include "ida_solver.hpp"

using daekit::plugins::CvodeSolver;
using daekit::plugins::IdaSolver;

DAEKIT_EXPORT_SOLVER(IdaSolver, ida, "0.1.0",
                     "SUNDIALS IDA 6.4: variable-order BDF (1-5) for F(t,y,y')=0 and M y'=f, dense or KLU")
DAEKIT_EXPORT_SOLVER(CvodeSolver, cvode, "0.1.0",
                     "SUNDIALS CVODE 6.4: variable-order BDF (1-5) in Nordsieck form for y'=f, dense or KLU")
