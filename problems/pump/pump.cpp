// The charge pump (IVP Test Set `pump`, Guenther, Denk & Feldmann): one MOS transistor
// with the charge-oriented model of "How models for MOS transistors reflect charge
// distribution effects" (1995) between two capacitors, driven by a trapezoidal input
// of 20 V with a period of 120 ns, on [0, 1.2e-6] s. Nine unknowns (five charges, three
// voltages, the source current), a constant singular non-diagonal mass matrix, index 2
// in the current. The input's 39 kinks are breakpoints.
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "pump_reference.inc"

namespace {

// The test set's constants under its names (pump.f): the problem's real parameters
// (`--param COX=4.2e-12`), these values their nominal ones.
struct Constants {
  double capd = 0.40e-12, caps = 1.60e-12;                      // CAPD, CAPS
  double vt0 = 0.20, gamma_b = 0.350e-1, phi = 1.010, cox = 4.0e-12;  // VT0, GAMMA, PHI, COX
  double vhigh = 20.0;                                          // VHIGH: the input's plateau
  static constexpr std::size_t count = 7;
  static constexpr const char* names[count] = {"CAPD", "CAPS", "VT0", "GAMMA", "PHI", "COX", "VHIGH"};
  double* values() { return &capd; }
  const double* values() const { return &capd; }
};
static_assert(sizeof(Constants) == Constants::count * sizeof(double), "Constants::values() walks the fields");
constexpr double period = 120e-9, rise_start = 50e-9, rise_end = 60e-9, fall_start = 110e-9;

// The terminal voltages ordered so that "source" is the lower of the two ends, and the
// transistor's threshold quantities; false where sqrt(phi - v_bs) is undefined. A template
// over the scalar type: the same code gives f and, on duals, its exact Jacobian.
template <class T>
struct Terminals {
  T ugs, ugd, ugb, ubs, vte;
  double vfb, gamma_b, phi, cox;
  bool ok;
  Terminals(const Constants& c, const T& vgb, const T& vgs, const T& vgd) : gamma_b(c.gamma_b), phi(c.phi), cox(c.cox) {
    using std::sqrt;
    const double vt0 = c.vt0;
    ugs = vgs - vgd <= 0.0 ? vgd : vgs;
    ugd = vgs - vgd <= 0.0 ? vgs : vgd;
    ugb = vgb;
    ubs = ugs - ugb;
    ok = phi - ubs >= 0.0;
    vfb = vt0 - gamma_b * std::sqrt(phi) - phi;
    vte = ok ? vt0 + gamma_b * (sqrt(phi - ubs) - std::sqrt(phi)) : T(0.0);
  }
  // The channel term (ugdt + ugst - ugdt ugst / (ugdt + ugst)); `strict` is the gate
  // charge's ugd > vte where source and drain charges use ugd >= vte, as in the source.
  T channel(bool strict) const {
    const T ugst = ugs - vte;
    const T ugdt = (strict ? ugd > vte : ugd >= vte) ? T(ugd - vte) : T(0.0);
    return ugdt + ugst - (ugdt * ugst) / (ugdt + ugst);
  }
  bool conducting() const { return ugb > vfb && ugs > vte; }
};

template <class T>
bool gate_charge(const Terminals<T>& m, T& q) {
  using std::sqrt;
  const double gamma_b = m.gamma_b, phi = m.phi, cox = m.cox;
  if (!m.ok) return false;
  if (m.ugb <= m.vfb)
    q = cox * (m.ugb - m.vfb);
  else if (!m.conducting())
    q = cox * gamma_b * (sqrt(gamma_b * gamma_b / 4.0 + m.ugb - m.vfb) - gamma_b / 2.0);
  else
    q = cox * (2.0 / 3.0 * m.channel(true) + gamma_b * sqrt(phi - m.ubs));
  return true;
}

// Source and drain charges are the same function in this model.
template <class T>
bool channel_charge(const Terminals<T>& m, T& q) {
  if (!m.ok) return false;
  q = m.conducting() ? T(-m.cox / 3.0 * m.channel(false)) : T(0.0);
  return true;
}

double input(double t, double vhigh) {
  const double tau = std::fmod(t, period);
  if (tau < rise_start) return 0.0;
  if (tau < rise_end) return (tau - rise_start) * 0.10e9 * vhigh;
  if (tau < fall_start) return vhigh;
  return (period - tau) * 0.10e9 * vhigh;
}

class ChargePump : public daekit::AutoDiffProblem<ChargePump> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit ChargePump(const daekit::Params&) {
    auto& in = info_;
    in.name = "pump";
    in.title = "charge pump: MOS charge model, index-2 DAE with a singular non-diagonal mass matrix";
    in.n = 9;
    in.tend = 1.2e-6;
    in.mass = daekit::MassKind::constant;
    in.consistent_y0 = true;
    in.has_yp0 = true;
    in.differential = {1, 1, 1, 1, 1, 0, 0, 0, 0};
    in.index = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    in.component_names = {"Q_gate", "Q_s", "Q_src", "Q_d", "Q_drain", "V_gate", "V_s", "V_d", "I_src"};
    // The input's kinks at 50, 60, 110 and 120 ns in every period.
    for (int i = 1; i <= 39; ++i) {
      const double offsets[4] = {0.0, rise_start, rise_end, fall_start};
      in.tstops.push_back(offsets[i % 4] + (i / 4) * period);
    }
    // The test set's tolerances: atol = 1e-6 tol for the charges (~1e-13), tol otherwise.
    in.atol_scale = {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1.0, 1.0, 1.0, 1.0};
    daekit::use_testset_reference(info_, pump_reference_text, "pump.ref");
    const Constants nominal;
    for (std::size_t j = 0; j < Constants::count; ++j) in.parameters.push_back({Constants::names[j], nominal.values()[j], 0.0});
    in.scored.assign(9, DK_SCORED_RELATIVE);
    in.scored[8] = DK_SCORED_NO;  // the current: a loose check value only (PSIDE at 2e-8)
    differentiate_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    // All voltages zero; the charges of the transistor at zero voltage.
    y.setZero();
    yp.setZero();
    const Terminals<double> zero(c_, 0.0, 0.0, 0.0);
    gate_charge(zero, y[0]);
    channel_charge(zero, y[2]);
    channel_charge(zero, y[4]);
  }

  template <class T>
  daekit::Eval rhs_of(double t, const T* y, T* f) {
    const Terminals<T> m(c_, y[5], y[5] - y[6], y[5] - y[7]);
    T qg, qs, qd;
    if (!gate_charge(m, qg) || !channel_charge(m, qs) || !channel_charge(m, qd)) return daekit::Eval::recoverable;
    f[0] = -y[8];
    f[1] = 0.0;
    f[2] = 0.0;
    f[3] = -y[5] + input(t, c_.vhigh);
    f[4] = y[0] - qg;
    f[5] = y[1] - c_.caps * y[6];
    f[6] = y[2] - qs;
    f[7] = y[3] - c_.capd * y[7];
    f[8] = y[4] - qd;
    return daekit::Eval::ok;
  }

  // New constants, every one positive (df/dp: the SDK's differences).
  daekit::Eval set_parameters(std::span<const double> p) override {
    Constants c;
    for (std::size_t j = 0; j < Constants::count; ++j) {
      if (!(p[j] > 0.0) || !std::isfinite(p[j]))
        return fail(std::string("pump: ") + Constants::names[j] + " must be a positive number");
      c.values()[j] = p[j];
    }
    if (const daekit::Eval e = daekit::Problem::set_parameters(p); e != daekit::Eval::ok) return e;
    c_ = c;
    return daekit::Eval::ok;
  }

  // Charge balances: Q_gate' = -I, (Q_s + Q_src)' = 0, (Q_d + Q_drain)' = 0.
  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    m(0, 0) = 1.0;
    m(1, 1) = m(1, 2) = 1.0;
    m(2, 3) = m(2, 4) = 1.0;
    return daekit::Eval::ok;
  }

 private:
  Constants c_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(ChargePump, pump, "0.1.0", "charge pump, MOS charge model: index-2 DAE, n=9 (IVP Test Set)")
