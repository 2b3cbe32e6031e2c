// The device equations of the two-bit adder: the Shichman-Hodges drain current, the
// pn-junction currents and capacitances, the input pulses, and the two loops over the
// netlist that assemble the static currents i(t, U) and the charges g(U).
// Constants are the test set's (time scaled by CTIME = 1e4, currents by STIFF = 5).
#include <cmath>

#include "adder_circuit.hpp"

namespace tba {
namespace {

constexpr double ctime = 1e4, stiff = 5.0;
constexpr double r_gs = 40.0 / (ctime * stiff), r_gd = r_gs;     // gate-source/drain resistances
constexpr double r_bs = 100.0 / (ctime * stiff), r_bd = r_bs;    // bulk resistances
constexpr double c_gs = 0.6e-4 * ctime, c_gd = c_gs;             // gate capacitances
constexpr double c_bd0 = 2.4e-5 * ctime;                         // zero-bias junction capacitance
constexpr double phi_b = 0.87;                                   // junction potential
constexpr double delta = 0.02;                                   // channel-length modulation
constexpr double i_sat = 1e-15 * ctime * stiff;                  // junction saturation current
constexpr double v_thermal = 25.85;
constexpr double v_bb = -2.5;                                    // bulk bias

struct MosParameters {
  double vt0, gamma, phi, beta;
};

MosParameters parameters(MosType type) {
  constexpr double enh_beta = 43.7e-6 * ctime * stiff;
  switch (type) {
    case MosType::depletion: return {-2.43, 0.2, 1.28, 53.5e-6 * ctime * stiff};
    case MosType::enhancement: return {0.2, 0.035, 1.01, 4 * enh_beta};
    case MosType::two_in_series: return {0.2, 0.035, 1.01, 8 * enh_beta};
    case MosType::three_in_series: break;
  }
  return {0.2, 0.035, 1.01, 12 * enh_beta};
}

// Drain current for v_ds != 0 in the conducting direction; `forward` is v_ds > 0 (then
// v_gx, v_bx are gate-source and bulk-source, otherwise gate-drain and bulk-drain).
// False where the threshold's square root is undefined.
bool channel_current(const MosParameters& p, bool forward, double v_ds, double v_gx, double v_bx, double& ids) {
  if (p.phi - v_bx < 0.0) return false;
  const double v_te = p.vt0 + p.gamma * (std::sqrt(p.phi - v_bx) - std::sqrt(p.phi));
  const double overdrive = v_gx - v_te;
  const double v = forward ? v_ds : -v_ds;  // > 0
  if (overdrive <= 0.0) {
    ids = 0.0;
  } else if (overdrive <= v) {  // saturation
    ids = forward ? -p.beta * overdrive * overdrive * (1.0 + delta * v_ds)
                  : p.beta * overdrive * overdrive * (1.0 - delta * v_ds);
  } else {  // linear region
    ids = forward ? -p.beta * v_ds * (2.0 * overdrive - v_ds) * (1.0 + delta * v_ds)
                  : -p.beta * v_ds * (2.0 * overdrive + v_ds) * (1.0 - delta * v_ds);
  }
  return true;
}

bool drain_current(MosType type, double v_ds, double v_gs, double v_bs, double v_gd, double v_bd, double& ids) {
  if (v_ds == 0.0) {
    ids = 0.0;
    return true;
  }
  const MosParameters p = parameters(type);
  return v_ds > 0.0 ? channel_current(p, true, v_ds, v_gs, v_bs, ids)
                    : channel_current(p, false, v_ds, v_gd, v_bd, ids);
}

// Current of a reverse-biased pn junction (zero when forward biased, as in the model).
double junction_current(double v) { return v <= 0.0 ? -i_sat * (std::exp(v / v_thermal) - 1.0) : 0.0; }

double junction_capacitance(double v) {
  return v <= 0.0 ? c_bd0 / std::sqrt(1.0 - v / phi_b) : c_bd0 * (1.0 + v / (2.0 * phi_b));
}

double voltage(const Terminal& t, const double* u) { return t.is_node() ? u[t.node] : t.potential; }

// A trapezoid: low until `delay`, rising for `rise`, high for `high_for`, falling for
// `fall`, repeated every `period`.
struct Pulse {
  double delay, rise, high_for, fall, period;
  void at(double t, double& v, double& slope) const {
    constexpr double low = 0.0, high = 5.0;
    const double tau = std::fmod(t, period);
    if (tau > delay + rise + high_for + fall) {
      v = low, slope = 0.0;
    } else if (tau > delay + rise + high_for) {
      slope = -(high - low) / fall;
      v = (high - low) / fall * (delay + rise + high_for + fall - tau) + low;
    } else if (tau > delay + rise) {
      v = high, slope = 0.0;
    } else if (tau > delay) {
      slope = (high - low) / rise;
      v = slope * (tau - delay) + low;
    } else {
      v = low, slope = 0.0;
    }
  }
};

// A0, B0, A1, B1 (inverted) and the carry-in: every combination of the five inputs
// over [0, 320].
constexpr Pulse pulses[5] = {{0, 5, 5, 5, 20}, {10, 5, 15, 5, 40}, {30, 5, 35, 5, 80},
                             {70, 5, 75, 5, 160}, {150, 5, 155, 5, 320}};

}  // namespace

Inputs input_pulses(double t) {
  Inputs in;
  for (int k = 0; k < 5; ++k) pulses[k].at(t, in.value[k], in.slope[k]);
  return in;
}

bool static_currents(const Netlist& net, double t, const double* u, double* i) {
  const Inputs in = input_pulses(t);
  for (std::size_t k = 0; k < node_count; ++k) i[k] = 0.0;
  for (const Transistor& m : net.transistors) {
    const bool by_signal = m.gate.signal != Signal::none;
    const double ug = by_signal ? in.value[static_cast<int>(m.gate.signal)] : u[m.gate.node];
    // Gates driven by a node couple through the charges; inputs inject C * slope here.
    const double ug_slope = by_signal ? in.slope[static_cast<int>(m.gate.signal)] : 0.0;
    const double us = voltage(m.source, u), ud = voltage(m.drain, u);
    double ids;
    if (!drain_current(m.type, u[m.gd] - u[m.gs], ug - u[m.gs], u[m.bs] - us, ug - u[m.gd], u[m.bd] - ud, ids))
      return false;
    const double i_gs = (u[m.gs] - us) / r_gs, i_gd = (u[m.gd] - ud) / r_gd;
    const double i_bs = junction_current(u[m.bs] - us), i_bd = junction_current(u[m.bd] - ud);
    i[m.gs] += c_gs * ug_slope - i_gs - ids;
    i[m.gd] += c_gd * ug_slope - i_gd + ids;
    i[m.bs] += -(u[m.bs] - v_bb) / r_bs + i_bs;
    i[m.bd] += -(u[m.bd] - v_bb) / r_bd + i_bd;
    if (m.source.is_node()) i[m.source.node] += i_gs - i_bs;
    if (m.drain.is_node()) i[m.drain.node] += i_gd - i_bd;
  }
  return true;
}

void charges(const Netlist& net, const double* u, double* q) {
  for (std::size_t k = 0; k < node_count; ++k) q[k] = net.node_capacitance[k] * u[k];
  for (const Transistor& m : net.transistors) {
    const bool by_node = m.gate.signal == Signal::none;
    const double ug = by_node ? u[m.gate.node] : 0.0;  // an input's charge enters through its slope
    q[m.gs] += c_gs * (u[m.gs] - ug);
    q[m.gd] += c_gd * (u[m.gd] - ug);
    if (by_node) q[m.gate.node] += c_gs * (ug - u[m.gs]) + c_gd * (ug - u[m.gd]);
    const double us = voltage(m.source, u), ud = voltage(m.drain, u);
    const double c_bs = junction_capacitance(u[m.bs] - us), c_bd = junction_capacitance(u[m.bd] - ud);
    q[m.bs] += c_bs * (u[m.bs] - us);
    if (m.source.is_node()) q[m.source.node] += c_bs * (us - u[m.bs]);
    // A junction to the supply is charged against ground, as in the test set's model.
    const double bd_against = m.bulk_drain_charge_node >= 0 ? u[m.bulk_drain_charge_node]
                              : m.drain.is_node()          ? ud
                                                           : 0.0;
    q[m.bd] += c_bd * (u[m.bd] - bd_against);
    if (m.drain.is_node()) q[m.drain.node] += c_bd * (ud - u[m.bd]);
  }
}

}  // namespace tba
