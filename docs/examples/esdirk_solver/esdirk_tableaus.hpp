// ESDIRK tableaus as data: an explicit first stage (c1 = 0, the step's f(t, y) reused),
// then implicit stages with one diagonal coefficient gamma, the last stage the solution
// (stiffly accurate: b is A's last row), and an embedded b_hat for the error estimate.
#pragma once

namespace esdirk {

inline constexpr int max_stages = 4;

struct Tableau {
  const char* name;
  const char* source;
  int stages;
  int order, embedded_order;
  double gamma;
  double a[max_stages][max_stages];  // a[i][j], j < i, and a[i][i] = gamma for i > 0
  double b_hat[max_stages];
  double c[max_stages];
};

// ARK3(2)4L[2]SA, its implicit (ESDIRK) part: order 3, L-stable, stiffly accurate, with
// an order-2 embedded method. C. A. Kennedy, M. H. Carpenter, Additive Runge-Kutta schemes
// for convection-diffusion-reaction equations, Appl. Numer. Math. 44 (2003) 139-181,
// Table "ARK3(2)4L[2]SA" (the coefficients as published there, and in SUNDIALS ARKODE).
inline constexpr double kc_gamma = 1767732205903.0 / 4055673282236.0;
inline constexpr Tableau esdirk3 = {
    "esdirk3",
    "Kennedy & Carpenter, Appl. Numer. Math. 44 (2003): ARK3(2)4L[2]SA, implicit part",
    4, 3, 2, kc_gamma,
    {{0, 0, 0, 0},
     {kc_gamma, kc_gamma, 0, 0},
     {2746238789719.0 / 10658868560708.0, -640167445237.0 / 6845629431997.0, kc_gamma, 0},
     {1471266399579.0 / 7840856788654.0, -4482444167858.0 / 7529755066697.0, 11266239266428.0 / 11593286722821.0,
      kc_gamma}},
    {2756255671327.0 / 12835298489170.0, -10771552573575.0 / 22201958757719.0, 9247589265047.0 / 10645013368117.0,
     2193209047091.0 / 5459859503100.0},
    {0, 2 * kc_gamma, 3.0 / 5.0, 1}};

// Implicit Euler (order 1, L-stable, stiffly accurate) with the trapezoidal rule as its
// embedded method: the error estimate is h/2 (f(t+h, y1) - f(t, y0)).
inline constexpr Tableau esdirk1 = {
    "esdirk1", "implicit Euler with the trapezoidal rule as error estimator", 2, 1, 2, 1.0,
    {{0, 0}, {0, 1}}, {0.5, 0.5}, {0, 1}};

}  // namespace esdirk
