// Device equations the test set's MOS circuits share (nand, tba): the Shichman-Hodges
// drain current with channel-length modulation, and the bulk pn junctions' current and
// voltage-dependent capacitance. Templates over the scalar, so a circuit's exact Jacobian
// comes from the SDK's duals (sdk/autodiff.hpp). Each circuit brings its own constants.
#pragma once

#include <cmath>
#include <daekit/sdk/dual.hpp>

namespace daekit::mos {

struct Transistor {
  double vt0, gamma, phi;                 // threshold at zero bulk bias, body effect, surface potential
  double beta_forward, beta_reverse;      // gain for drain above source, and below
  double delta;                           // channel-length modulation
};

// The channel current in one direction (forward: drain above source), with the gate and
// bulk voltages of that direction; false where the square root of phi - v_bulk is undefined.
template <class T>
bool channel_current(const Transistor& m, bool forward, const T& vds, const T& vg, const T& vb, T& ids) {
  using std::sqrt;
  ids = 0.0;
  if (m.phi - vb < 0.0) return false;
  const double beta = forward ? m.beta_forward : m.beta_reverse;
  const T vte = m.vt0 + m.gamma * (sqrt(m.phi - vb) - std::sqrt(m.phi));
  const T over = vg - vte;
  if (over <= 0.0) return true;  // cut off
  if (forward) {
    ids = over <= vds ? -beta * over * over * (1.0 + m.delta * vds)
                      : -beta * vds * (2.0 * over - vds) * (1.0 + m.delta * vds);
  } else {
    ids = over <= -vds ? beta * over * over * (1.0 - m.delta * vds)
                       : -beta * vds * (2.0 * over + vds) * (1.0 - m.delta * vds);
  }
  return true;
}

// Drain-source current; false where the square root of phi - v_bulk is undefined. At
// vds = 0 the current is 0 but its two one-sided slopes differ (each direction has its own
// gate and bulk voltages): the derivative is their mean, the slope a central difference
// sees there.
template <class T>
bool drain_current(const Transistor& m, const T& vds, const T& vgs, const T& vbs, const T& vgd, const T& vbd, T& ids) {
  if (value_of(vds) == 0.0) {
    T forward, reverse;
    if (!channel_current(m, true, vds, vgs, vbs, forward)) forward = 0.0;
    if (!channel_current(m, false, vds, vgd, vbd, reverse)) reverse = 0.0;
    ids = 0.5 * (forward + reverse);
    return true;
  }
  const bool forward = vds > 0.0;
  return channel_current(m, forward, vds, forward ? vgs : vgd, forward ? vbs : vbd, ids);
}

// Current of a reverse-biased pn junction (zero when forward biased, as in the models).
template <class T>
T junction_current(const T& v, double saturation_current, double thermal_voltage) {
  using std::exp;
  return v <= 0.0 ? -saturation_current * (exp(v / thermal_voltage) - 1.0) : T(0.0);
}

// The junction's capacitance: depletion below zero bias, linearised above.
template <class T>
T junction_capacitance(const T& v, double zero_bias_capacitance, double junction_potential) {
  using std::sqrt;
  return v <= 0.0 ? zero_bias_capacitance / sqrt(1.0 - v / junction_potential)
                  : zero_bias_capacitance * (1.0 + v / (2.0 * junction_potential));
}

}  // namespace daekit::mos
