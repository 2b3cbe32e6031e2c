// A Rosenbrock (ROW / W) method as data, in the transformed form of Hairer &
// Wanner (II, IV.7) that RODAS and OrdinaryDiffEq use. With W = M / (h gamma) - J:
//
//   W k_i = f(t + c_i h, y + sum_{j<i} a_ij k_j) + h d_i f_t + M sum_{j<i} (C_ij / h) k_j
//   y_new = y + sum_i b_i k_i,        error estimate = sum_i btilde_i k_i
//
// and, where the method has one, the continuous extension on theta in [0, 1]:
//   y(theta) = (1 - theta) y + theta (y_new + (1 - theta)(h_1 + theta (h_2 + theta h_3))),
//   h_r = sum_j H_rj k_j.
#pragma once

#include <string_view>

namespace daekit::tableaus {

inline constexpr int max_rosenbrock_stages = 8;

struct RosenbrockTableau {
  std::string_view name;
  std::string_view source;  // where the coefficients come from
  int stages;
  int order;           // of y_new
  int embedded_order;  // of the solution the error estimate compares with
  int dense_order;     // order of the continuous extension (0: none, cubic Hermite is used)
  int dae_order;       // order on index-1 DAEs in mass-matrix form, as measured (tests/rosenbrock); 0: ODEs only
  bool w_method;       // order holds with any approximation of the Jacobian
  double gamma;
  double a[max_rosenbrock_stages][max_rosenbrock_stages];
  double C[max_rosenbrock_stages][max_rosenbrock_stages];
  double c[max_rosenbrock_stages];
  double d[max_rosenbrock_stages];
  double b[max_rosenbrock_stages];
  double btilde[max_rosenbrock_stages];
  int dense_rows;  // 0, 2 or 3 rows of H
  double H[3][max_rosenbrock_stages];
  // Highest DAE index the method solves, as measured (tests/conformance exercises each claim).
  int max_dae_index = 2;
  // A Rosenbrock-Krylov method (a K-method): its order also holds with J replaced by its
  // Arnoldi projection onto K_m(J, f(y_n)), m >= order (linear_solver=arnoldi).
  bool krylov_method = false;
};

}  // namespace daekit::tableaus
