// The Rosenbrock family's plugin library: one exported solver per tableau.
#include <daekit/sdk/export_solver.hpp>
#include <daekit/tableaus/rodas5p.hpp>

#include "rosenbrock_solver.hpp"

using Rodas5P = daekit::plugins::RosenbrockSolver<daekit::tableaus::rodas5p>;

DAEKIT_EXPORT_SOLVER(Rodas5P, rodas5p, "0.1.0",
                     "Rodas5P (Steinebach 2023): 8-stage order-5 Rosenbrock method, stiffly accurate, index-1/2 DAEs")
