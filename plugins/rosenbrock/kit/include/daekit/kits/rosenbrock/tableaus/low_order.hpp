// Rosenbrock and Rosenbrock-W methods of order 2 and 3. None of them defines a
// continuous extension of its own except Rosenbrock23, so the stepper uses its
// documented cubic Hermite fallback (never for algebraic components).
#pragma once

#include "daekit/kits/rosenbrock/tableau.hpp"

namespace daekit::tableaus {

// L. F. Shampine and M. W. Reichelt, "The MATLAB ODE Suite", SIAM J. Sci. Comput.
// 18 (1997): ode23s, an L-stable order-2 W-method with an order-3 error estimate
// and a second-order continuous extension. The paper gives it with d = 1/(2+sqrt 2),
// e32 = 6 + sqrt 2 in "k" form; the numbers below are its transformation to the
// form of rosenbrock_tableau.hpp (a = alpha Gamma^-1, C = -Gamma^-1 below the
// diagonal, b^T Gamma^-1, with Gamma = [[d], [-d, d], [(e32-2)d, -e32 d, d]] and
// time-derivative weights the row sums of Gamma, (d, 0, -d); tests/unit checks them).
inline constexpr RosenbrockTableau rosenbrock23 = {
    .name = "rosenbrock23",
    .source = "Shampine & Reichelt, SIAM J. Sci. Comput. 18 (1997) (ode23s), transformed to ROW form",
    .stages = 3,
    .order = 2,
    .embedded_order = 3,
    .dense_order = 2,
    .dae_order = 2,
    .w_method = true,
    .gamma = 0.2928932188134525,
    .a = {{0, 0, 0}, {1.7071067811865475, 0, 0}, {3.414213562373095, 3.414213562373095, 0}},
    .C = {{0, 0, 0}, {-3.414213562373095, 0, 0}, {-6.828427124746187, -25.313708498984756, 0}},
    .c = {0, 0.5, 1},
    .d = {0.2928932188134525, 0, -0.2928932188134525},
    .b = {3.414213562373095, 3.414213562373095, 0},
    .btilde = {0.5690355937288487, 3.080880229039761, 0.5690355937288492},
    .dense_rows = 1,
    .H = {{0, -8.242640687119286, 0}},
};

// J. Lang and J. Verwer, "ROS3P - an accurate third-order Rosenbrock solver
// designed for parabolic problems", BIT 41 (2001) 731-738. gamma = 1/2 + sqrt(3)/6.
//
// The error estimate is not the paper's. Its embedded order-2 solution (weights
// 2.1132, 1, 0.4226) coincides with the main solution on every linear constant-
// coefficient problem: there the second stage is (1 - a21) times the first, and the
// paper's estimate -0.1132 k1 - 0.4226 k2 is exactly zero, so any step is accepted
// (a heat equation ended 100x beyond the tolerance in 3-6 steps). With three stages
// whose second and third share their argument, every order-2 embedding is a multiple
// of that one, so none can see the error there. The estimate below compares with the
// linearly implicit Euler solution y + k1/gamma of the first stage (order 1): it never
// vanishes where the method errs, and it is pessimistic (the error it controls is
// O(h^2) where the solution's is O(h^4)), which costs steps at tight tolerances.
inline constexpr RosenbrockTableau ros3p = {
    .name = "ros3p",
    .source = "Lang & Verwer, BIT 41 (2001) 731-738; values as in OrdinaryDiffEq.jl ROS3PTableau; error estimate "
               "against the first stage's linearly implicit Euler solution (the paper's vanishes on linear problems)",
    .stages = 3,
    .order = 3,
    .embedded_order = 1,
    .dense_order = 0,
    .dae_order = 3,
    .w_method = false,
    .gamma = 0.7886751345948129,
    .a = {{0, 0, 0}, {1.2679491924311228, 0, 0}, {1.2679491924311228, 0, 0}},
    .C = {{0, 0, 0}, {-1.6076951545867364, 0, 0}, {-3.4641016151377553, -1.7320508075688774, 0}},
    .c = {0, 1, 1},
    .d = {0.7886751345948129, -0.2113248654051871, -1.077350269189626},
    .b = {2.0, 0.5773502691896257, 0.42264973081037427},
    // m - (1/gamma, 0, 0), 1/gamma = 3 - sqrt(3)
    .btilde = {0.7320508075688772, 0.5773502691896257, 0.42264973081037427},
    .dense_rows = 0,
    .H = {},
};

// A. Sandu et al., "Benchmarking stiff ODE solvers for atmospheric chemistry
// problems II: Rosenbrock solvers", Atmos. Environ. 31 (1997): RODAS3, four stages,
// stiffly accurate, order 3 with an order-2 estimate.
inline constexpr RosenbrockTableau rodas3 = {
    .name = "rodas3",
    .source = "Sandu et al., Atmos. Environ. 31 (1997); values as in OrdinaryDiffEq.jl Rodas3Tableau",
    .stages = 4,
    .order = 3,
    .embedded_order = 2,
    .dense_order = 0,
    .dae_order = 3,
    .w_method = false,
    .gamma = 0.5,
    .a = {{0, 0, 0, 0}, {0, 0, 0, 0}, {2, 0, 0, 0}, {2, 0, 1, 0}},
    .C = {{0, 0, 0, 0}, {4, 0, 0, 0}, {1, -1, 0, 0}, {1, -1, -8.0 / 3.0, 0}},
    .c = {0, 0, 1, 1},
    .d = {0.5, 1.5, 0, 0},
    .b = {2, 0, 1, 1},
    .btilde = {0, 0, 0, 1},
    .dense_rows = 0,
    .H = {},
};

// J. Rang and L. Angermann, "New Rosenbrock W-methods of order 3 for partial
// differential algebraic equations of index 1", BIT 45 (2005) 761-787: ROS34PW2,
// four stages, stiffly accurate, order 3 with an order-2 estimate, W-method. Built for
// index 1, and only that is claimed: on the pendulum with its velocity constraint
// (index 2) it ends in repeated error-test failures at rtol 1e-5 and 1e-7.
inline constexpr RosenbrockTableau ros34pw2 = {
    .name = "ros34pw2",
    .source = "Rang & Angermann, BIT 45 (2005) 761-787; values as in OrdinaryDiffEq.jl ROS34PW2Tableau",
    .stages = 4,
    .order = 3,
    .embedded_order = 2,
    .dense_order = 0,
    .dae_order = 3,
    .w_method = true,
    .gamma = 0.435866521508459,
    .a = {{0, 0, 0, 0},
          {2.0, 0, 0, 0},
          {1.4192173174557647, -0.2592322116729697, 0, 0},
          {4.18476048231916, -0.28519201735549593, 2.294280360279042, 0}},
    .C = {{0, 0, 0, 0},
          {-4.588560720558084, 0, 0, 0},
          {-4.18476048231916, 0.28519201735549593, 0, 0},
          {-6.368179200128359, -6.795620944466837, 2.8700986043310563, 0}},
    .c = {0, 0.871733043016918, 0.7315799577888524, 1.0},
    .d = {0.435866521508459, -0.435866521508459, -0.4133333762338865, -5.551115123125783e-17},
    .b = {4.1847604823191595, -0.28519201735549565, 2.2942803602790414, 1.0},
    .btilde = {0.2777499476479681, -1.4032398951759992, 1.7726301276675507, 0.5},
    .dense_rows = 0,
    .H = {},
    .max_dae_index = 1,
};

}  // namespace daekit::tableaus
