#include "wheelset_model.hpp"

#include <cmath>

namespace daekit::wheelset {
namespace {

// Data of the test set's wheelset (SI units).
constexpr double g = 9.81, speed = 30.0, rn0 = 0.1, chassis_height = 0.2, mu = 0.12, xl = 0.19, cx = 6400.0,
                 cz = 6400.0, contact_tol = 1e-8;
constexpr double cone = 0.0262, half_gauge = 0.1506, rail_radius = 0.06, profile_eps = 1e-5;

template <class T>
struct Profile {
  T r, dr, d2r;
};

// The sign of x as a constant: its derivative is zero wherever it is defined.
template <class T>
double sign_of(const T& x) {
  return value_of(x) < 0.0 ? -1.0 : 1.0;
}

// The conical wheel profile r(xi).
template <class T>
bool wheel_profile(const T& x, Profile<T>& p) {
  using std::abs;
  const T xabs = abs(x);
  if (xabs <= 0.0 || xabs >= 4.0) return false;
  const double ta = std::tan(cone);
  p = {rn0 + ta * (half_gauge - xabs), T(sign_of(x) * -ta), T(0.0)};
  return true;
}

// The circular rail profile g(x).
template <class T>
bool rail_profile(const T& x, Profile<T>& p) {
  using std::abs, std::sqrt;
  const double sir = std::sin(cone) * rail_radius;
  const T xabs = abs(x);
  if (half_gauge + sir + rail_radius - profile_eps <= xabs || half_gauge + sir - rail_radius + profile_eps >= xabs)
    return false;
  const T t = sqrt(rail_radius * rail_radius - (xabs - half_gauge - sir) * (xabs - half_gauge - sir));
  p = {t - rn0 - std::cos(cone) * rail_radius, sign_of(x) * (-xabs + half_gauge + sir) / t,
       -rail_radius * rail_radius / (t * t * t)};
  return true;
}

// One row of the constraint Jacobian G for a contact point.
template <class T>
void constraint_row(const T& xr, const T& rx, const T& dgx, const T& sit, const T& cot, const T& sip, const T& cop,
                    const T& sips, const T& cops, T q[5]) {
  q[0] = dgx;
  q[1] = -1.0;
  q[2] = 0.0;
  q[3] = dgx * (rx * (-cot * sips - cops * sip * sit) - cop * sit * xr);
  q[4] = -(cops * rx * sip) - cop * xr + dgx * (cop * cops * cot * rx - cot * sip * xr);
}

// Jaschinski's creep forces at one contact point (left: side = +1, right: -1).
template <class T>
void creep_forces(const T* y, const T& fn, const T& rx, const T& drx, const T& d2rx, const T& dgx, const T& d2gx,
                  const T& delta, const T& psi, const T& xr, double side, T t[3]) {
  using std::sin, std::cos, std::sqrt, std::pow, std::cbrt, std::abs, std::tanh;
  constexpr double e = 1.3537956, gg = 0.7115218, sigma = 0.28, gm = 7.92e10, pi = 3.1415926;
  constexpr double c11 = 4.72772197, c22 = 4.27526987, c23 = 1.97203505;
  constexpr double omega = speed / rn0;
  const T zz = y[2], sip = sin(y[4]), cop = cos(y[4]);
  const T xxp = y[5], yyp = y[6], zzp = y[7], tetap = y[8], phip = y[9], betap = y[10];
  const T sis = sin(psi), cos_ = cos(psi);
  const T sid = sin(delta), cod = cos(delta);
  const T sit = sin(y[3] / cod), cot = cos(y[3] / cod);
  // Semi-axis of the contact ellipse (Hertz).
  const T rr = rx * sqrt(1.0 + drx * drx);
  const T rhog = -d2gx / pow(1.0 + dgx * dgx, 1.5), rhor = d2rx / pow(1.0 + drx * drx, 1.5);
  const T a = 0.5 / rr, b = 0.5 * (rhog + rhor);
  const T cc =
      cbrt((abs(fn) * 3.0 * (1.0 - sigma) * e) / (2.0 * pi * (a + b) * gm * sqrt(gg)));
  // Relative velocity at the contact point (straight track: no curvature terms).
  const T wvk1 = -(omega + betap) * rx * (sit * cos_ + cot * sip * sis) + xxp -
                      tetap * (rx * (sit * sip * cos_ + cot * sis) + xr * sit * cop) -
                      phip * cot * (xr * sip - rx * cop * cos_);
  const T wvk2 = (omega + betap) * rx * cop * sis + yyp + phip * (xr * cop + rx * sip * cos_);
  const T wvk3 = -(omega + betap) * rx * (cot * cos_ - sit * sip * sis) + speed + zzp -
                      tetap * (xr * cot * cop + rx * (cot * sip * cos_ - sit * sis)) +
                      phip * sit * (xr * sip - rx * cop * cos_);
  // Rolling velocity.
  const T wvk4 = wvk1 - 2.0 * xxp, wvk5 = wvk2 - 2.0 * yyp, wvk6 = wvk3 - 2.0 * zzp - 2.0 * speed;
  const T wvr = 0.5 * sqrt(wvk4 * wvk4 + wvk5 * wvk5 + wvk6 * wvk6);
  // Creepages.
  const T nux = (sit * wvk1 + cot * wvk3) / wvr;
  const T nuy = (cot * cod * wvk1 + side * sid * wvk2 - sit * cod * wvk3) / wvr;
  const T phis = (-side * sid * (omega + betap) + cod * tetap) / wvr;
  (void)zz;
  const T wt = mu * fn;
  T tx = -wt * tanh(gm * cc * cc * c11 * nux / wt);
  T ty = -wt * tanh(gm * cc * cc * c22 * nuy / wt + gm * cc * cc * cc * c23 * phis / wt);
  const T sqt = sqrt(tx * tx + ty * ty);
  if (sqt * sqt > wt * wt) {  // saturated: normalise to the friction limit
    tx *= abs(wt) / sqt;
    ty *= abs(wt) / sqt;
  }
  t[0] = sit * tx + cot * cod * ty;
  t[1] = side * sid * ty;
  t[2] = cot * tx - sit * cod * ty;
}

}  // namespace

template <class T>
bool forces(const T* y, T* f) {
  using std::sin, std::cos, std::atan, std::abs;
  const T xx = y[0], zz = y[2], teta = y[3], phi = y[4];
  const T xxp = y[5], yyp = y[6], zzp = y[7], tetap = y[8], phip = y[9], betap = y[10];
  const T e1 = y[11] * 1e4, e2 = y[12] * 1e4;  // the multipliers are scaled by 1e-4
  const T psil = y[13], xrl = y[14], psir = y[15], xrr = y[16];
  constexpr double omega = speed / rn0;
  const T sit = sin(teta), cot = cos(teta), sip = sin(phi), cop = cos(phi);
  const T sisl = sin(psil), cosl = cos(psil), sisr = sin(psir), cosr = cos(psir);

  Profile<T> wl, wr, rl, rr;
  if (!wheel_profile(xrl, wl)) return false;
  const T xgl = xx + xrl * cot * cop + wl.r * (cot * sip * cosl - sit * sisl);
  if (!rail_profile(xgl, rl)) return false;
  if (!wheel_profile(xrr, wr)) return false;
  const T xgr = xx + xrr * cot * cop + wr.r * (cot * sip * cosr - sit * sisr);
  if (!rail_profile(xgr, rr)) return false;

  T ql[5], qr[5];
  constraint_row(xrl, wl.r, rl.dr, sit, cot, sip, cop, sisl, cosl, ql);
  constraint_row(xrr, wr.r, rr.dr, sit, cot, sip, cop, sisr, cosr, qr);

  // Angles of the contact planes, and the normal forces from the multipliers.
  const T deltal = atan(((wl.dr * cop - sip * cosl) * cot + sisl * sit) / (-wl.dr * sip - cosl * cop));
  const T deltar = atan(((wr.dr * cop - sip * cosr) * cot + sisr * sit) / (wr.dr * sip + cosr * cop));
  const T sidl = sin(deltal), codl = cos(deltal), sidr = sin(deltar), codr = cos(deltar);
  const T deter = -sidl * codr - sidr * codl;
  if (abs(deter) < contact_tol) return false;
  const T w1 = ql[0] * e1 + qr[0] * e2, w2 = ql[1] * e1 + qr[1] * e2;
  const T fnl = (codr * w1 - sidr * w2) / deter, fnr = (-codl * w1 - sidl * w2) / deter;

  T tl[3], tr[3];
  creep_forces(y, fnl, wl.r, wl.dr, wl.d2r, rl.dr, rl.d2r, deltal, psil, xrl, 1.0, tl);
  creep_forces(y, fnr, wr.r, wr.dr, wr.d2r, rr.dr, rr.d2r, deltar, psir, xrr, -1.0, tr);

  // Chassis forces on straight track without propulsion.
  const T fq2 = 0.0, fq3 = -2.0 * cz * zz, lm2 = -2.0 * xl * xl * cz * teta;
  (void)chassis_height;

  f[0] = xxp, f[1] = yyp, f[2] = zzp, f[3] = tetap, f[4] = phip;
  // Newton's law.
  f[5] = tl[0] + tr[0] + ql[0] * e1 + qr[0] * e2 - 2.0 * cx * xx;
  f[6] = tl[1] + tr[1] + fq2 - wheel_mass * g + ql[1] * e1 + qr[1] * e2;
  f[7] = tl[2] + tr[2] + fq3 + ql[2] * e1 + qr[2] * e2;
  // Euler's law.
  T a = -(xrl * sit + wl.r * sisl * cot * cop) * tl[0] - wl.r * sisl * sip * tl[1] +
             (-xrl * cot + wl.r * sisl * sit * cop) * tl[2];
  T b = -(xrr * sit + wr.r * sisr * cot * cop) * tr[0] - wr.r * sisr * sip * tr[1] +
             (-xrr * cot + wr.r * sisr * sit * cop) * tr[2];
  f[8] = -inertia2 * (-tetap * phip * sip) - inertia1 * (omega + betap) * phip -
         (inertia1 - inertia2) * (tetap * sip) * phip + a + b + cop * lm2 + ql[3] * e1 + qr[3] * e2;
  a = -(xrl * cot * sip - wl.r * cosl * cot * cop) * tl[0] + (xrl * cop + wl.r * cosl * sip) * tl[1] +
      (xrl * sit * sip - wl.r * cosl * sit * cop) * tl[2];
  b = -(xrr * cot * sip - wr.r * cosr * cot * cop) * tr[0] + (xrr * cop + wr.r * cosr * sip) * tr[1] +
      (xrr * sit * sip - wr.r * cosr * sit * cop) * tr[2];
  f[9] = inertia1 * (omega + betap) * (tetap * cop) + (inertia1 - inertia2) * (tetap * sip) * (tetap * cop) + a + b +
         ql[4] * e1 + qr[4] * e2;
  a = -wl.r * (cosl * sit + sisl * cot * sip) * tl[0] + wl.r * sisl * cop * tl[1] -
      wl.r * (cosl * cot - sisl * sit * sip) * tl[2];
  b = -wr.r * (cosr * sit + sisr * cot * sip) * tr[0] + wr.r * sisr * cop * tr[1] -
      wr.r * (cosr * cot - sisr * sit * sip) * tr[2];
  f[10] = -inertia1 * (tetap * phip * cop) + a + b + sip * lm2;
  // Velocity-level contact constraints (index-2 formulation) ...
  f[11] = f[12] = 0.0;
  for (int i = 0; i < 5; ++i) f[11] += ql[i] * y[5 + i], f[12] += qr[i] * y[5 + i];
  // ... and the conditions that fix the contact points (normals parallel).
  f[13] = rl.dr * (wl.dr * sip + cop * cosl) + wl.dr * cot * cop - cot * sip * cosl + sit * sisl;
  f[14] = wl.dr * sit * cop - sit * sip * cosl - cot * sisl;
  f[15] = rr.dr * (wr.dr * sip + cop * cosr) + wr.dr * cot * cop - cot * sip * cosr + sit * sisr;
  f[16] = wr.dr * sit * cop - sit * sip * cosr - cot * sisr;
  return true;
}

template bool forces<double>(const double*, double*);
template bool forces<AutoDiffScalar>(const AutoDiffScalar*, AutoDiffScalar*);

}  // namespace daekit::wheelset
