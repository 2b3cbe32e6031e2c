// The Rosenbrock family's plugin library: one exported solver per tableau.
#include <daekit/sdk/export_solver.hpp>
#include <daekit/kits/rosenbrock/tableaus/all_rosenbrock.hpp>

#include "rosenbrock_solver.hpp"

namespace tab = daekit::tableaus;
using daekit::plugins::RosenbrockSolver;

using Rosenbrock23 = RosenbrockSolver<tab::rosenbrock23>;
using Ros3P = RosenbrockSolver<tab::ros3p>;
using Rodas3 = RosenbrockSolver<tab::rodas3>;
using Ros34PW2 = RosenbrockSolver<tab::ros34pw2>;
using Rodas4 = RosenbrockSolver<tab::rodas4>;
using Rodas42 = RosenbrockSolver<tab::rodas42>;
using Rodas4P = RosenbrockSolver<tab::rodas4p>;
using Rodas4P2 = RosenbrockSolver<tab::rodas4p2>;
using Rodas5 = RosenbrockSolver<tab::rodas5>;
using Rodas5P = RosenbrockSolver<tab::rodas5p>;
using Rok4a = RosenbrockSolver<tab::rok4a>;

DAEKIT_EXPORT_SOLVER(Rosenbrock23, rosenbrock23, "0.1.0",
                     "Rosenbrock23 (Shampine & Reichelt, ode23s): L-stable order-2(3) W-method")
DAEKIT_EXPORT_SOLVER(Ros3P, ros3p, "0.1.0", "ROS3P (Lang & Verwer 2001): order 3; its error estimate is order 1 (the paper's vanishes on "
                     "linear problems), so it takes many more steps than needed: prefer ros34pw2 or rodas4p")
DAEKIT_EXPORT_SOLVER(Rodas3, rodas3, "0.1.0", "RODAS3 (Sandu et al. 1997): 4-stage order-3, stiffly accurate")
DAEKIT_EXPORT_SOLVER(Ros34PW2, ros34pw2, "0.1.0",
                     "ROS34PW2 (Rang & Angermann 2005): order-3 W-method, stiffly accurate, index-1 DAEs")
DAEKIT_EXPORT_SOLVER(Rodas4, rodas4, "0.1.0", "RODAS (Hairer & Wanner): 6-stage order-4, stiffly accurate")
DAEKIT_EXPORT_SOLVER(Rodas42, rodas42, "0.1.0", "RODAS second coefficient set (Hairer & Wanner): order 4")
DAEKIT_EXPORT_SOLVER(Rodas4P, rodas4p, "0.1.0", "RODASP (Steinebach 1995): order 4, less order reduction")
DAEKIT_EXPORT_SOLVER(Rodas4P2, rodas4p2, "0.1.0", "Rodas4P2 (Steinebach 2020): improved RODASP, order 4")
DAEKIT_EXPORT_SOLVER(Rodas5, rodas5, "0.1.0", "Rodas5 (Di Marzo 1993): 8-stage order-5, stiffly accurate")
DAEKIT_EXPORT_SOLVER(Rodas5P, rodas5p, "0.1.0",
                     "Rodas5P (Steinebach 2023): 8-stage order-5 Rosenbrock method, stiffly accurate, index-1/2 DAEs")
DAEKIT_EXPORT_SOLVER(Rok4a, rok4a, "0.1.0",
                     "ROK4a (Tranquilli & Sandu 2014): order-4 Rosenbrock-Krylov method, L-stable; J projected onto a "
                     "Krylov space of f when asked (linear_solver=arnoldi, outside the error test)")
