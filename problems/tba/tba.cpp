// The two-bit adding unit (IVP Test Set `tba`): a CMOS circuit adding two two-bit
// numbers and a carry, 350 unknowns on [0, 320]. y = (q, U): the 175 charges and the
// 175 node voltages, M = diag(I, 0),
//   q' = i(t, U)        (static currents, adder_devices.cpp)
//   0  = q - g(U)       (charges, index 1)
// The input pulses have kinks every 5 time units; the test set integrates through them
// without restarts (its reference was computed that way), so no breakpoints are given.
// df/dy is exact, by the SDK's forward-mode differentiation in the sparsity pattern of
// the netlist's couplings (one pass of 8 colours at a time).
#include <algorithm>

#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "adder_circuit.hpp"
#include "tba_reference.inc"
#include "tba_voltages.inc"

namespace {

constexpr std::size_t m = tba::node_count;

class TwoBitAdder : public daekit::AutoDiffProblem<TwoBitAdder> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit TwoBitAdder(const daekit::Params&) : net_(tba::two_bit_adder()) {
    auto& in = info_;
    in.name = "tba";
    in.title = "two-bit adding unit: CMOS circuit, 175 charges and 175 voltages, index-1 DAE";
    in.n = 2 * m;
    in.tend = 320.0;
    in.mass = daekit::MassKind::constant;
    in.consistent_y0 = true;
    in.has_yp0 = true;
    in.differential.assign(2 * m, 0);
    std::fill(in.differential.begin(), in.differential.begin() + m, 1);
    in.index.assign(2 * m, 1);
    in.component_names = daekit::numbered_names("q", m);
    for (const std::string& v : daekit::numbered_names("U", m)) in.component_names.push_back(v);
    in.component_names[m + tba::output_s0] += " (S0)";
    in.component_names[m + tba::output_s1] += " (S1)";
    in.component_names[m + tba::output_carry] += " (carry)";
    daekit::use_testset_reference(info_, tba_reference_text, "tba.ref");
    // The test set scores the three output voltages only.
    in.scored.assign(2 * m, DK_SCORED_NO);
    for (std::size_t out : {tba::output_s0, tba::output_s1, tba::output_carry}) in.scored[m + out] = DK_SCORED_RELATIVE;
    u0_ = daekit::testset_data(tba_voltages_text, "tba.u0", m).values;
    // The pattern: the Jacobian's passes seed one colour of columns each. Column q_j reaches only 0 = q_j - g_j(U); column U_j reaches the currents and charges
    // of the nodes coupled to node j.
    const auto coupled = tba::node_couplings(net_);
    in.jac_col_ptr.push_back(0);
    for (std::size_t j = 0; j < m; ++j) {
      in.jac_row_idx.push_back(static_cast<std::int32_t>(m + j));
      in.jac_col_ptr.push_back(static_cast<std::int32_t>(in.jac_row_idx.size()));
    }
    for (std::size_t j = 0; j < m; ++j) {
      for (int i : coupled[j]) in.jac_row_idx.push_back(i);
      for (int i : coupled[j]) in.jac_row_idx.push_back(static_cast<std::int32_t>(m) + i);
      in.jac_col_ptr.push_back(static_cast<std::int32_t>(in.jac_row_idx.size()));
    }
    differentiate_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    // The voltages of the source's steady state, the charges they carry, y'(0) = 0.
    for (std::size_t k = 0; k < m; ++k) y[m + k] = u0_[k];
    tba::charges(net_, y.data() + m, y.data());
    yp.setZero();
  }

  template <class T>
  daekit::Eval rhs_of(double t, const T* y, T* f) {
    const T* u = y + m;
    if (!tba::static_currents(net_, t, u, f)) return daekit::Eval::recoverable;
    tba::charges(net_, u, f + m);
    for (std::size_t k = 0; k < m; ++k) f[m + k] = y[k] - f[m + k];
    return daekit::Eval::ok;
  }

 private:
  const tba::Netlist& net_;
  std::vector<double> u0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(TwoBitAdder, tba, "0.1.0", "two-bit adding unit, CMOS circuit: index-1 DAE, n=350 (IVP Test Set)")
