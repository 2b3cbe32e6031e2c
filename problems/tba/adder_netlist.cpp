// The wiring of the two-bit adder: which transistor sits between which nodes. Node
// numbers follow the test set's (1-based there, 0-based here): the gates occupy the
// blocks 1-13 (NOR), 14-31 (ANDOI), 32-44 (NOR), 45-62 and 63-80 (ANDOI), 81-93 (NOR),
// 94-111 (ANDOI), 112-125 (NAND), 126-143 (ORANI), 144-161 (ANDOI with the chain at its
// result node), and 162-175 the chain of three transistors.
#include <algorithm>
#include "adder_circuit.hpp"

namespace tba {
namespace {

constexpr double vdd = 5.0;
// Loads: none on the logic nodes in the test set's runs; the outputs carry 2e-4 * CTIME
// in total (the test set's COUT is that minus the logic load).
constexpr double c_load = 0.0;
constexpr double c_out = 2.0 - c_load;

const Terminal ground = Terminal::fixed(0.0);

class Builder {
 public:
  Netlist net;

  // 0-based first node of a gate whose test-set first node is `first`.
  static int base(int first) { return first - 1; }

  void transistor(MosType type, int first_internal, Terminal source, Terminal drain, Drive gate,
                  int bulk_drain_charge_node = -1) {
    net.transistors.push_back(Transistor{type, first_internal, first_internal + 1, first_internal + 2,
                                         first_internal + 3, source, drain, gate, bulk_drain_charge_node});
  }

  // The depletion load between VDD and the result node b+4, its gate on the result node.
  void load(int b) {
    transistor(MosType::depletion, b, Terminal::at(b + 4), Terminal::fixed(vdd), Drive::by_node(b + 4));
    circuit_node(b + 4);
  }

  void circuit_node(int node) { net.node_capacitance[node] += c_load; }

  // NOT (U1 OR U2): two enhancement transistors in parallel from the result node to ground.
  void nor(int first, Drive u1, Drive u2) {
    const int b = base(first);
    load(b);
    transistor(MosType::enhancement, b + 5, ground, Terminal::at(b + 4), u1);
    transistor(MosType::enhancement, b + 9, ground, Terminal::at(b + 4), u2, b + 14);
  }

  // NOT (U1 OR (U2 AND U3)): U1's transistor in parallel with the series pair U2, U3
  // (joined at the coupling node b+13).
  void andoi(int first, Drive u1, Drive u2, Drive u3) {
    const int b = base(first);
    load(b);
    circuit_node(b + 13);
    transistor(MosType::enhancement, b + 5, ground, Terminal::at(b + 4), u1);
    transistor(MosType::two_in_series, b + 9, Terminal::at(b + 13), Terminal::at(b + 4), u2);
    transistor(MosType::two_in_series, b + 14, ground, Terminal::at(b + 13), u3);
  }

  // NOT (U1 AND U2): a series pair joined at b+9.
  void nand(int first, Drive u1, Drive u2) {
    const int b = base(first);
    load(b);
    circuit_node(b + 9);
    transistor(MosType::two_in_series, b + 5, Terminal::at(b + 9), Terminal::at(b + 4), u1);
    transistor(MosType::two_in_series, b + 10, ground, Terminal::at(b + 9), u2);
  }

  // NOT (U1 AND (U2 OR U3)): U1's transistor in series with the parallel pair U2, U3.
  void orani(int first, Drive u1, Drive u2, Drive u3) {
    const int b = base(first);
    load(b);
    circuit_node(b + 9);
    transistor(MosType::two_in_series, b + 5, Terminal::at(b + 9), Terminal::at(b + 4), u1);
    transistor(MosType::two_in_series, b + 10, ground, Terminal::at(b + 9), u2);
    transistor(MosType::two_in_series, b + 14, ground, Terminal::at(b + 9), u3);
  }
};

Drive node(int test_set_node) { return Drive::by_node(test_set_node - 1); }
Drive pulse(Signal s) { return Drive::by_signal(s); }

Netlist build() {
  Builder b;
  const Drive v1 = pulse(Signal::a0_inv), v2 = pulse(Signal::b0_inv), v3 = pulse(Signal::a1_inv),
              v4 = pulse(Signal::b1_inv), cin = pulse(Signal::carry_in);
  b.nor(1, v1, v2);
  b.andoi(14, node(5), v2, v1);
  b.nor(32, node(18), cin);
  b.andoi(45, node(36), cin, node(18));  // result: S0 (node 49)
  b.andoi(63, node(5), cin, node(18));
  b.nor(81, v3, v4);
  b.andoi(94, node(85), v4, v3);
  b.nand(112, node(67), node(98));
  b.orani(126, node(116), node(67), node(98));  // result: S1 (node 130)
  b.andoi(144, node(85), node(5), node(98));    // result: the carry (node 148)
  // The chain from the carry node 148 to ground through the nodes 166 and 171, gated by
  // nodes 98 and 18 and the carry input.
  b.transistor(MosType::three_in_series, 161, Terminal::at(165), Terminal::at(147), node(98));
  b.transistor(MosType::three_in_series, 166, Terminal::at(170), Terminal::at(165), node(18));
  b.transistor(MosType::three_in_series, 171, ground, Terminal::at(170), cin);
  b.circuit_node(165);
  b.circuit_node(170);
  for (std::size_t out : {output_s0, output_s1, output_carry}) b.net.node_capacitance[out] += c_out;
  return b.net;
}

}  // namespace

const Netlist& two_bit_adder() {
  static const Netlist net = build();
  return net;
}

std::vector<std::vector<int>> node_couplings(const Netlist& net) {
  std::vector<std::vector<int>> coupled(node_count);
  for (std::size_t k = 0; k < node_count; ++k) coupled[k].push_back(static_cast<int>(k));
  for (const Transistor& m : net.transistors) {
    // Every node a transistor touches: its currents and charges read all of them.
    std::vector<int> nodes = {m.gs, m.gd, m.bs, m.bd};
    for (const Terminal& t : {m.source, m.drain})
      if (t.is_node()) nodes.push_back(t.node);
    if (m.gate.signal == Signal::none) nodes.push_back(m.gate.node);
    if (m.bulk_drain_charge_node >= 0) nodes.push_back(m.bulk_drain_charge_node);
    for (int a : nodes)
      for (int b : nodes) coupled[static_cast<std::size_t>(a)].push_back(b);
  }
  for (auto& c : coupled) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  return coupled;
}

}  // namespace tba
