// The two-bit adding unit of the IVP Test Set (`tba`, Guenther & Rentrop's CMOS
// benchmark) as a netlist: 10 logic gates and a chain of three transistors, each MOS
// transistor modelled after Shichman and Hodges with four internal nodes (gate-source,
// gate-drain, bulk-source, bulk-drain). The 175 node voltages U give
//   * the static currents  i(t, U)  (the right-hand side of the charge balances), and
//   * the charges          g(U)     (the capacitive part),
// and the test set's DAE is  q' = i(t, U),  0 = q - g(U).
//
// The netlist is data: a list of transistors with their node numbers and drives, built
// once; currents and charges are one loop over it, so every gate type is written once.
#pragma once

#include <array>
#include <cstddef>
#include <daekit/sdk/autodiff.hpp>
#include <vector>

namespace tba {

constexpr std::size_t node_count = 175;

// Output nodes (0-based): S0, S1 and the carry (the test set scores these voltages).
constexpr std::size_t output_s0 = 48, output_s1 = 129, output_carry = 147;

// What a terminal of a transistor is tied to: a circuit node or a fixed potential.
struct Terminal {
  int node = -1;         // 0-based node, or -1 for a fixed potential
  double potential = 0;  // used when node < 0
  static Terminal at(int node) { return {node, 0.0}; }
  static Terminal fixed(double v) { return {-1, v}; }
  bool is_node() const { return node >= 0; }
};

// What drives a gate: a circuit node, or one of the five input pulses.
enum class Signal { none = -1, a0_inv = 0, b0_inv, a1_inv, b1_inv, carry_in };
struct Drive {
  int node = -1;  // 0-based node when the gate is driven by the circuit
  Signal signal = Signal::none;
  static Drive by_node(int node) { return {node, Signal::none}; }
  static Drive by_signal(Signal s) { return {-1, s}; }
};

// The four transistor types of the model: a depletion load, and enhancement
// transistors standing for one, two or three devices in series (larger beta).
enum class MosType { depletion = 0, enhancement = 1, two_in_series = 2, three_in_series = 3 };

struct Transistor {
  MosType type;
  int gs, gd, bs, bd;  // internal nodes: gate-source, gate-drain, bulk-source, bulk-drain
  Terminal source, drain;
  Drive gate;
  // The node the bulk-drain junction's charge is measured against; normally the drain
  // (or ground for a fixed drain). The test set's NOR gate measures its second input
  // transistor's against another node (first node + 14): kept, since the reference
  // was computed with it.
  int bulk_drain_charge_node = -1;
};

struct Netlist {
  std::vector<Transistor> transistors;
  std::array<double, node_count> node_capacitance{};  // linear load on result/coupling/output nodes
};

// The adder as the test set wires it.
const Netlist& two_bit_adder();

// The five input pulses at t and their slopes (the gate couplings inject C * slope).
struct Inputs {
  std::array<double, 5> value{}, slope{};
};
Inputs input_pulses(double t);

// i(t, U): false where a junction square root is undefined (phi - V_b < 0), which the
// test set reports as IERR = -1 (the step must be retried).
template <class T>
bool static_currents(const Netlist& net, double t, const T* u, T* i);
extern template bool static_currents<double>(const Netlist&, double, const double*, double*);
extern template bool static_currents<daekit::AutoDiffScalar>(const Netlist&, double, const daekit::AutoDiffScalar*,
                                                             daekit::AutoDiffScalar*);

// g(U).
template <class T>
void charges(const Netlist& net, const T* u, T* q);
extern template void charges<double>(const Netlist&, const double*, double*);
extern template void charges<daekit::AutoDiffScalar>(const Netlist&, const daekit::AutoDiffScalar*, daekit::AutoDiffScalar*);

// For each node, the nodes (itself included, sorted) whose voltages its current or charge
// may read: the nodes of every transistor it belongs to. The Jacobian's pattern.
std::vector<std::vector<int>> node_couplings(const Netlist& net);

}  // namespace tba
