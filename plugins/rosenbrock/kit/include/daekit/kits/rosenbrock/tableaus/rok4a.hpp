// P. Tranquilli and A. Sandu, "Rosenbrock-Krylov methods for large systems of
// differential equations", SIAM J. Sci. Comput. 36 (2014): ROK4a, four stages, order 4
// with an order-3 estimate, L-stable (R(inf) = 0 to the coefficients' 14 digits). A
// K-method: its order holds when J is replaced by its Arnoldi projection onto a Krylov
// space K_m(J, f(y_n)) of dimension m >= 4 (linear_solver=arnoldi), and with the exact J
// it is an ordinary Rosenbrock method of order 4.
//
// The paper gives alpha, Gamma (gamma = 0.572816062482135 on the diagonal), b = (1/6, 1/6,
// 0, 2/3) and the embedded b^ = (0.502693225736836, 0.278675519690059, 0.218631254573105,
// 0); the numbers below are their transformation to the form of tableau.hpp (a = alpha
// Gamma^-1, C = diag(1/gamma) - Gamma^-1, weights b Gamma^-1 and (b - b^) Gamma^-1, d the
// row sums of Gamma), computed in 30-digit arithmetic. The published alphas of the fourth
// stage sum to 0.5 + 5e-14; c4 is written 0.5. tests/rosenbrock checks the transformation,
// the order conditions and the order with a four-dimensional projection.
#pragma once

#include "daekit/kits/rosenbrock/tableau.hpp"

namespace daekit::tableaus {

inline constexpr RosenbrockTableau rok4a = {
    .name = "rok4a",
    .source = "Tranquilli & Sandu, SIAM J. Sci. Comput. 36 (2014), ROK4a, transformed to ROW form",
    .stages = 4,
    .order = 4,
    .embedded_order = 3,
    .dense_order = 0,
    .dae_order = 0,
    .w_method = false,
    .gamma = 0.572816062482135,
    .a = {{0, 0, 0, 0},
          {1.7457611011583461, 0, 0, 0},
          {2.4703844781940778, 0.68354751891934172, 0, 0},
          {1.681950399126388, 0.25286213499735333, -0.13856798941017042, 0}},
    .C = {{0, 0, 0, 0},
          {-5.825741115110914, 0, 0, 0},
          {1.0021333747582396, 0, 0, 0},
          {-2.0798465277651675, -0.74287708812886647, -0.52001384980122029, 0}},
    .c = {0, 1, 0.5, 0.5},
    .d = {0.572816062482135, -1.338715867278415, 0.901634303093673, 0.1914749511990729},
    .b = {2.6484813878883217, 0.786211575612302, 0.3466758998674802, 1.1638407341055641},
    .btilde = {0.36650535272083754, 0.29971069349231023, -0.035002039863694288, 1.1638407341055641},
    .dense_rows = 0,
    .H = {},
    // Not stiffly accurate and not built for DAEs: with the LU it failed the conformance
    // run on chemakzo (index 1; the error test failed 51 times in a row at h = 2e-9).
    .max_dae_index = 0,
    .krylov_method = true,
};

}  // namespace daekit::tableaus
