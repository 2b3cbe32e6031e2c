#include "wheelset_model.hpp"

#include <cmath>

namespace daekit::wheelset {
namespace {

// Data of the test set's wheelset (SI units).
constexpr double g = 9.81, speed = 30.0, rn0 = 0.1, chassis_height = 0.2, mu = 0.12, xl = 0.19, cx = 6400.0,
                 cz = 6400.0, contact_tol = 1e-8;
constexpr double cone = 0.0262, half_gauge = 0.1506, rail_radius = 0.06, profile_eps = 1e-5;

struct Profile {
  double r, dr, d2r;
};

// The conical wheel profile r(xi).
bool wheel_profile(double x, Profile& p) {
  const double xabs = std::abs(x);
  if (xabs <= 0.0 || xabs >= 4.0) return false;
  const double ta = std::tan(cone);
  p = {rn0 + ta * (half_gauge - xabs), std::copysign(1.0, x) * -ta, 0.0};
  return true;
}

// The circular rail profile g(x).
bool rail_profile(double x, Profile& p) {
  const double sir = std::sin(cone) * rail_radius, xabs = std::abs(x);
  if (half_gauge + sir + rail_radius - profile_eps <= xabs || half_gauge + sir - rail_radius + profile_eps >= xabs)
    return false;
  const double t = std::sqrt(rail_radius * rail_radius - (xabs - half_gauge - sir) * (xabs - half_gauge - sir));
  p = {t - rn0 - std::cos(cone) * rail_radius, std::copysign(1.0, x) * (-xabs + half_gauge + sir) / t,
       -rail_radius * rail_radius / (t * t * t)};
  return true;
}

// One row of the constraint Jacobian G for a contact point.
void constraint_row(double xr, double rx, double dgx, double sit, double cot, double sip, double cop, double sips,
                    double cops, double q[5]) {
  q[0] = dgx;
  q[1] = -1.0;
  q[2] = 0.0;
  q[3] = dgx * (rx * (-cot * sips - cops * sip * sit) - cop * sit * xr);
  q[4] = -(cops * rx * sip) - cop * xr + dgx * (cop * cops * cot * rx - cot * sip * xr);
}

// Jaschinski's creep forces at one contact point (left: side = +1, right: -1).
void creep_forces(const double* y, double fn, double rx, double drx, double d2rx, double dgx, double d2gx,
                  double delta, double psi, double xr, double side, double t[3]) {
  constexpr double e = 1.3537956, gg = 0.7115218, sigma = 0.28, gm = 7.92e10, pi = 3.1415926;
  constexpr double c11 = 4.72772197, c22 = 4.27526987, c23 = 1.97203505;
  const double omega = speed / rn0;
  const double zz = y[2], sip = std::sin(y[4]), cop = std::cos(y[4]);
  const double xxp = y[5], yyp = y[6], zzp = y[7], tetap = y[8], phip = y[9], betap = y[10];
  const double sis = std::sin(psi), cos_ = std::cos(psi);
  const double sid = std::sin(delta), cod = std::cos(delta);
  const double sit = std::sin(y[3] / cod), cot = std::cos(y[3] / cod);
  // Semi-axis of the contact ellipse (Hertz).
  const double rr = rx * std::sqrt(1.0 + drx * drx);
  const double rhog = -d2gx / std::pow(1.0 + dgx * dgx, 1.5), rhor = d2rx / std::pow(1.0 + drx * drx, 1.5);
  const double a = 0.5 / rr, b = 0.5 * (rhog + rhor);
  const double cc =
      std::cbrt((std::abs(fn) * 3.0 * (1.0 - sigma) * e) / (2.0 * pi * (a + b) * gm * std::sqrt(gg)));
  // Relative velocity at the contact point (straight track: no curvature terms).
  const double wvk1 = -(omega + betap) * rx * (sit * cos_ + cot * sip * sis) + xxp -
                      tetap * (rx * (sit * sip * cos_ + cot * sis) + xr * sit * cop) -
                      phip * cot * (xr * sip - rx * cop * cos_);
  const double wvk2 = (omega + betap) * rx * cop * sis + yyp + phip * (xr * cop + rx * sip * cos_);
  const double wvk3 = -(omega + betap) * rx * (cot * cos_ - sit * sip * sis) + speed + zzp -
                      tetap * (xr * cot * cop + rx * (cot * sip * cos_ - sit * sis)) +
                      phip * sit * (xr * sip - rx * cop * cos_);
  // Rolling velocity.
  const double wvk4 = wvk1 - 2.0 * xxp, wvk5 = wvk2 - 2.0 * yyp, wvk6 = wvk3 - 2.0 * zzp - 2.0 * speed;
  const double wvr = 0.5 * std::sqrt(wvk4 * wvk4 + wvk5 * wvk5 + wvk6 * wvk6);
  // Creepages.
  const double nux = (sit * wvk1 + cot * wvk3) / wvr;
  const double nuy = (cot * cod * wvk1 + side * sid * wvk2 - sit * cod * wvk3) / wvr;
  const double phis = (-side * sid * (omega + betap) + cod * tetap) / wvr;
  (void)zz;
  const double wt = mu * fn;
  double tx = -wt * std::tanh(gm * cc * cc * c11 * nux / wt);
  double ty = -wt * std::tanh(gm * cc * cc * c22 * nuy / wt + gm * cc * cc * cc * c23 * phis / wt);
  const double sqt = std::sqrt(tx * tx + ty * ty);
  if (sqt * sqt > wt * wt) {  // saturated: normalise to the friction limit
    tx *= std::abs(wt) / sqt;
    ty *= std::abs(wt) / sqt;
  }
  t[0] = sit * tx + cot * cod * ty;
  t[1] = side * sid * ty;
  t[2] = cot * tx - sit * cod * ty;
}

}  // namespace

bool forces(const double* y, double* f) {
  const double xx = y[0], zz = y[2], teta = y[3], phi = y[4];
  const double xxp = y[5], yyp = y[6], zzp = y[7], tetap = y[8], phip = y[9], betap = y[10];
  const double e1 = y[11] * 1e4, e2 = y[12] * 1e4;  // the multipliers are scaled by 1e-4
  const double psil = y[13], xrl = y[14], psir = y[15], xrr = y[16];
  const double omega = speed / rn0;
  const double sit = std::sin(teta), cot = std::cos(teta), sip = std::sin(phi), cop = std::cos(phi);
  const double sisl = std::sin(psil), cosl = std::cos(psil), sisr = std::sin(psir), cosr = std::cos(psir);

  Profile wl, wr, rl, rr;
  if (!wheel_profile(xrl, wl)) return false;
  const double xgl = xx + xrl * cot * cop + wl.r * (cot * sip * cosl - sit * sisl);
  if (!rail_profile(xgl, rl)) return false;
  if (!wheel_profile(xrr, wr)) return false;
  const double xgr = xx + xrr * cot * cop + wr.r * (cot * sip * cosr - sit * sisr);
  if (!rail_profile(xgr, rr)) return false;

  double ql[5], qr[5];
  constraint_row(xrl, wl.r, rl.dr, sit, cot, sip, cop, sisl, cosl, ql);
  constraint_row(xrr, wr.r, rr.dr, sit, cot, sip, cop, sisr, cosr, qr);

  // Angles of the contact planes, and the normal forces from the multipliers.
  const double deltal = std::atan(((wl.dr * cop - sip * cosl) * cot + sisl * sit) / (-wl.dr * sip - cosl * cop));
  const double deltar = std::atan(((wr.dr * cop - sip * cosr) * cot + sisr * sit) / (wr.dr * sip + cosr * cop));
  const double sidl = std::sin(deltal), codl = std::cos(deltal), sidr = std::sin(deltar), codr = std::cos(deltar);
  const double deter = -sidl * codr - sidr * codl;
  if (std::abs(deter) < contact_tol) return false;
  const double w1 = ql[0] * e1 + qr[0] * e2, w2 = ql[1] * e1 + qr[1] * e2;
  const double fnl = (codr * w1 - sidr * w2) / deter, fnr = (-codl * w1 - sidl * w2) / deter;

  double tl[3], tr[3];
  creep_forces(y, fnl, wl.r, wl.dr, wl.d2r, rl.dr, rl.d2r, deltal, psil, xrl, 1.0, tl);
  creep_forces(y, fnr, wr.r, wr.dr, wr.d2r, rr.dr, rr.d2r, deltar, psir, xrr, -1.0, tr);

  // Chassis forces on straight track without propulsion.
  const double fq2 = 0.0, fq3 = -2.0 * cz * zz, lm2 = -2.0 * xl * xl * cz * teta;
  (void)chassis_height;

  f[0] = xxp, f[1] = yyp, f[2] = zzp, f[3] = tetap, f[4] = phip;
  // Newton's law.
  f[5] = tl[0] + tr[0] + ql[0] * e1 + qr[0] * e2 - 2.0 * cx * xx;
  f[6] = tl[1] + tr[1] + fq2 - wheel_mass * g + ql[1] * e1 + qr[1] * e2;
  f[7] = tl[2] + tr[2] + fq3 + ql[2] * e1 + qr[2] * e2;
  // Euler's law.
  double a = -(xrl * sit + wl.r * sisl * cot * cop) * tl[0] - wl.r * sisl * sip * tl[1] +
             (-xrl * cot + wl.r * sisl * sit * cop) * tl[2];
  double b = -(xrr * sit + wr.r * sisr * cot * cop) * tr[0] - wr.r * sisr * sip * tr[1] +
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

}  // namespace daekit::wheelset
