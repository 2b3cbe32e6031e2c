// The device equations of the two-bit adder: the Shichman-Hodges drain current, the
// pn-junction currents and capacitances, the input pulses, and the two loops over the
// netlist that assemble the static currents i(t, U) and the charges g(U).
// Constants are the test set's (time scaled by CTIME = 1e4, currents by STIFF = 5).
// Templates over the scalar, built for doubles and the SDK's duals (the exact Jacobian).
#include <cmath>

#include "../common/mos_devices.hpp"
#include "adder_circuit.hpp"

using daekit::AutoDiffScalar;

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

daekit::mos::Transistor parameters(MosType type) {
  constexpr double enh_beta = 43.7e-6 * ctime * stiff;
  auto device = [](double vt0, double gamma, double phi, double beta) {
    return daekit::mos::Transistor{vt0, gamma, phi, beta, beta, delta};
  };
  switch (type) {
    case MosType::depletion: return device(-2.43, 0.2, 1.28, 53.5e-6 * ctime * stiff);
    case MosType::enhancement: return device(0.2, 0.035, 1.01, 4 * enh_beta);
    case MosType::two_in_series: return device(0.2, 0.035, 1.01, 8 * enh_beta);
    case MosType::three_in_series: break;
  }
  return device(0.2, 0.035, 1.01, 12 * enh_beta);
}

template <class T>
bool drain_current(MosType type, const T& v_ds, const T& v_gs, const T& v_bs, const T& v_gd, const T& v_bd, T& ids) {
  return daekit::mos::drain_current(parameters(type), v_ds, v_gs, v_bs, v_gd, v_bd, ids);
}

template <class T>
T junction_current(const T& v) {
  return daekit::mos::junction_current(v, i_sat, v_thermal);
}

template <class T>
T junction_capacitance(const T& v) {
  return daekit::mos::junction_capacitance(v, c_bd0, phi_b);
}

template <class T>
T voltage(const Terminal& t, const T* u) {
  return t.is_node() ? u[t.node] : T(t.potential);
}

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

template <class T>
bool static_currents(const Netlist& net, double t, const T* u, T* i) {
  const Inputs in = input_pulses(t);
  for (std::size_t k = 0; k < node_count; ++k) i[k] = 0.0;
  for (const Transistor& m : net.transistors) {
    const bool by_signal = m.gate.signal != Signal::none;
    const T ug = by_signal ? T(in.value[static_cast<int>(m.gate.signal)]) : u[m.gate.node];
    // Gates driven by a node couple through the charges; inputs inject C * slope here.
    const double ug_slope = by_signal ? in.slope[static_cast<int>(m.gate.signal)] : 0.0;
    const T us = voltage(m.source, u), ud = voltage(m.drain, u);
    T ids;
    if (!drain_current<T>(m.type, u[m.gd] - u[m.gs], ug - u[m.gs], u[m.bs] - us, ug - u[m.gd], u[m.bd] - ud, ids))
      return false;
    const T i_gs = (u[m.gs] - us) / r_gs, i_gd = (u[m.gd] - ud) / r_gd;
    const T i_bs = junction_current<T>(u[m.bs] - us), i_bd = junction_current<T>(u[m.bd] - ud);
    i[m.gs] += c_gs * ug_slope - i_gs - ids;
    i[m.gd] += c_gd * ug_slope - i_gd + ids;
    i[m.bs] += -(u[m.bs] - v_bb) / r_bs + i_bs;
    i[m.bd] += -(u[m.bd] - v_bb) / r_bd + i_bd;
    if (m.source.is_node()) i[m.source.node] += i_gs - i_bs;
    if (m.drain.is_node()) i[m.drain.node] += i_gd - i_bd;
  }
  return true;
}

template <class T>
void charges(const Netlist& net, const T* u, T* q) {
  for (std::size_t k = 0; k < node_count; ++k) q[k] = net.node_capacitance[k] * u[k];
  for (const Transistor& m : net.transistors) {
    const bool by_node = m.gate.signal == Signal::none;
    const T ug = by_node ? u[m.gate.node] : T(0.0);  // an input's charge enters through its slope
    q[m.gs] += c_gs * (u[m.gs] - ug);
    q[m.gd] += c_gd * (u[m.gd] - ug);
    if (by_node) q[m.gate.node] += c_gs * (ug - u[m.gs]) + c_gd * (ug - u[m.gd]);
    const T us = voltage(m.source, u), ud = voltage(m.drain, u);
    const T c_bs = junction_capacitance<T>(u[m.bs] - us), c_bd = junction_capacitance<T>(u[m.bd] - ud);
    q[m.bs] += c_bs * (u[m.bs] - us);
    if (m.source.is_node()) q[m.source.node] += c_bs * (us - u[m.bs]);
    // A junction to the supply is charged against ground, as in the test set's model.
    const T bd_against = m.bulk_drain_charge_node >= 0 ? u[m.bulk_drain_charge_node]
                         : m.drain.is_node()          ? ud
                                                      : T(0.0);
    q[m.bd] += c_bd * (u[m.bd] - bd_against);
    if (m.drain.is_node()) q[m.drain.node] += c_bd * (ud - u[m.bd]);
  }
}

template bool static_currents<double>(const Netlist&, double, const double*, double*);
template bool static_currents<AutoDiffScalar>(const Netlist&, double, const AutoDiffScalar*, AutoDiffScalar*);
template void charges<double>(const Netlist&, const double*, double*);
template void charges<AutoDiffScalar>(const Netlist&, const AutoDiffScalar*, AutoDiffScalar*);

}  // namespace tba
