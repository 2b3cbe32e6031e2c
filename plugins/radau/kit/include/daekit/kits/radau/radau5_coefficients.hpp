// The three-stage Radau IIA method as RADAU5 uses it (Hairer & Wanner, Solving ODEs II,
// Sec. IV.8; the numbers are theirs): read by radau5's step and its sensitivities.
#pragma once

#include <cmath>
#include <limits>

namespace daekit::radau5 {

// Radau IIA (three stages) and the transformation of its A^-1 to block-diagonal form,
// as in RADAU5 (Hairer & Wanner): nodes c, error-estimate weights dd, the real
// eigenvalue u1 = 1/gamma0 and the complex pair alph +- i beta of A^-1, and T, T^-1.
inline const double sq6 = std::sqrt(6.0);
inline const double c1 = (4.0 - sq6) / 10.0, c2 = (4.0 + sq6) / 10.0;
inline const double c1m1 = c1 - 1.0, c2m1 = c2 - 1.0, c1mc2 = c1 - c2;
inline const double dd1 = -(13.0 + 7.0 * sq6) / 3.0, dd2 = (-13.0 + 7.0 * sq6) / 3.0, dd3 = -1.0 / 3.0;
inline const double cbrt81 = std::cbrt(81.0), cbrt9 = std::cbrt(9.0);
inline const double u1 = 30.0 / (6.0 + cbrt81 - cbrt9);
inline const double alph0 = (12.0 - cbrt81 + cbrt9) / 60.0, beta0 = (cbrt81 + cbrt9) * std::sqrt(3.0) / 60.0;
inline const double cno = alph0 * alph0 + beta0 * beta0;
inline const double alph = alph0 / cno, beta = beta0 / cno;
inline constexpr double t11 = 9.1232394870892942792e-02, t12 = -0.14125529502095420843, t13 = -3.0029194105147424492e-02;
inline constexpr double t21 = 0.24171793270710701896, t22 = 0.20412935229379993199, t23 = 0.38294211275726193779;
inline constexpr double t31 = 0.96604818261509293619;
inline constexpr double ti11 = 4.3255798900631553510, ti12 = 0.33919925181580986954, ti13 = 0.54177053993587487119;
inline constexpr double ti21 = -4.1787185915519047273, ti22 = -0.32768282076106238708, ti23 = 0.47662355450055045196;
inline constexpr double ti31 = -0.50287263494578687595, ti32 = 2.5719269498556054292, ti33 = -0.59603920482822492497;
inline constexpr double uround = std::numeric_limits<double>::epsilon();


}  // namespace daekit::radau5
