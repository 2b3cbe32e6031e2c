// The NAND gate (IVP Test Set `nand`): a CMOS-like NAND gate of two enhancement and
// one depletion MOSFET (Shichman-Hodges model with bulk diodes) in charge-oriented
// network form, C(y) y' = f(t, y), with a voltage-dependent capacitance matrix C(y),
// 14 node potentials, on [0, 80]. The two inputs are trapezoidal pulses whose kinks
// at multiples of 5 are breakpoints. Given as a residual F(t, y, y') = C(y) y' - f, a
// template over the scalar: dF/dy + cj dF/dy' is exact, by the SDK's forward-mode
// differentiation (C(y)'s dependence on y included).
#include <cmath>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "../common/mos_devices.hpp"
#include "nand_initial.inc"
#include "nand_reference.inc"

namespace {

// Circuit data of the test set's driver.
constexpr double rgs = 4.0, rgd = 4.0, rbs = 10.0, rbd = 10.0, cgs = 0.6e-4, cgd = 0.6e-4, cbd = 2.4e-5,
                 c9 = 0.5e-4, delta = 0.2e-1, curis = 1e-14, vth = 25.85, vdd = 5.0, vbb = -2.5, phib = 0.87;

// Depletion type (1) and enhancement type (2). The source uses beta = 1.748e-3 for the
// enhancement transistor's forward and 1.748e-4 for its reverse current; the
// reference was computed with exactly that, so it is kept.
constexpr daekit::mos::Transistor depletion{-2.43, 0.2, 1.28, 5.35e-4, 5.35e-4, delta};
constexpr daekit::mos::Transistor enhancement{0.2, 0.035, 1.01, 1.748e-3, 1.748e-4, delta};

// Bulk-source and bulk-drain pn junctions, and their voltage-dependent capacitance.
template <class T>
T junction(const T& v) {
  return daekit::mos::junction_current(v, curis, vth);
}
template <class T>
T junction_capacitance(const T& v) {
  return daekit::mos::junction_capacitance(v, cbd, phib);
}

// A trapezoidal pulse: low until `delay`, ramp over t1, high for t2, ramp down over t3.
void pulse(double t, double delay, double t1, double t2, double t3, double period, double& v, double& dv) {
  constexpr double low = 0.0, high = 5.0;
  const double time = std::fmod(t, period);
  v = low, dv = 0.0;
  if (time > delay + t1 + t2 + t3) return;
  if (time > delay + t1 + t2) {
    v = (high - low) / t3 * (delay + t1 + t2 + t3 - time) + low, dv = -(high - low) / t3;
  } else if (time > delay + t1) {
    v = high;
  } else if (time > delay) {
    v = (high - low) / t1 * (time - delay) + low, dv = (high - low) / t1;
  }
}

class NandGate : public daekit::AutoDiffResidualProblem<NandGate> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit NandGate(const daekit::Params&) {
    info_.name = "nand";
    info_.title = "NAND gate: MOS circuit with voltage-dependent capacitances, C(y) y' = f (residual form)";
    info_.n = 14;
    info_.tend = 80.0;
    info_.form = daekit::Form::residual_only;
    info_.consistent_y0 = true;
    info_.has_yp0 = true;
    info_.component_names = daekit::numbered_names("V", 14);
    for (int k = 1; k <= 15; ++k) info_.tstops.push_back(5.0 * k);
    daekit::use_testset_reference(info_, nand_reference_text, "nand.ref");
    info_.scored.assign(14, DK_SCORED_NO);
    info_.scored[4] = DK_SCORED_RELATIVE;  // the gate's output, node 5
    y0_ = daekit::testset_data(nand_initial_text, "nand.y0", 14).values;
    differentiate_residual_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 14; ++i) y[i] = y0_[i];
    yp.setZero();  // the source's consistent y'(0)
  }

  template <class T>
  daekit::Eval residual_of(double t, const T* yv, const T* ypv, T* rv) const {
    const Eigen::Map<const Eigen::Matrix<T, 14, 1>> y(yv), yp(ypv);
    Eigen::Matrix<T, 14, 1> f;
    if (!currents(t, y, f)) return daekit::Eval::recoverable;
    Eigen::Map<Eigen::Matrix<T, 14, 1>> r(rv);
    r = charge_rates(y, yp) - f;
    return daekit::Eval::ok;
  }

 private:
  template <class T>
  static bool currents(double t, const Eigen::Map<const Eigen::Matrix<T, 14, 1>>& y, Eigen::Matrix<T, 14, 1>& f) {
    double v1, v1d, v2, v2d;
    pulse(t, 5.0, 5.0, 5.0, 5.0, 20.0, v1, v1d);
    pulse(t, 15.0, 5.0, 15.0, 5.0, 40.0, v2, v2d);
    T i1, i2, i3;
    if (!daekit::mos::drain_current<T>(depletion, y[1] - y[0], y[4] - y[0], y[2] - y[4], y[4] - y[1], y[3] - vdd, i1)) return false;
    if (!daekit::mos::drain_current<T>(enhancement, y[6] - y[5], v1 - y[5], y[7] - y[9], v1 - y[6], y[8] - y[4], i2)) return false;
    if (!daekit::mos::drain_current<T>(enhancement, y[11] - y[10], v2 - y[10], y[12], v2 - y[11], y[13] - y[9], i3)) return false;
    f[0] = -(y[0] - y[4]) / rgs - i1;
    f[1] = -(y[1] - vdd) / rgd + i1;
    f[2] = -(y[2] - vbb) / rbs + junction<T>(y[2] - y[4]);
    f[3] = -(y[3] - vbb) / rbd + junction<T>(y[3] - vdd);
    f[4] = -(y[4] - y[0]) / rgs - junction<T>(y[2] - y[4]) - (y[4] - y[6]) / rgd - junction<T>(y[8] - y[4]);
    f[5] = cgs * v1d - (y[5] - y[9]) / rgs - i2;
    f[6] = cgd * v1d - (y[6] - y[4]) / rgd + i2;
    f[7] = -(y[7] - vbb) / rbs + junction<T>(y[7] - y[9]);
    f[8] = -(y[8] - vbb) / rbd + junction<T>(y[8] - y[4]);
    f[9] = -(y[9] - y[5]) / rgs - junction<T>(y[7] - y[9]) - (y[9] - y[11]) / rgd - junction<T>(y[13] - y[9]);
    f[10] = cgs * v2d - y[10] / rgs - i3;
    f[11] = cgd * v2d - (y[11] - y[9]) / rgd + i3;
    f[12] = -(y[12] - vbb) / rbs + junction<T>(y[12]);
    f[13] = -(y[13] - vbb) / rbd + junction<T>(y[13] - y[9]);
    return true;
  }

  // C(y) y', from C's 34 non-zero entries (a dense 14 x 14 product would cost 6 times as
  // much, on duals too).
  template <class T>
  static Eigen::Matrix<T, 14, 1> charge_rates(const Eigen::Map<const Eigen::Matrix<T, 14, 1>>& y,
                                              const Eigen::Map<const Eigen::Matrix<T, 14, 1>>& yp) {
    const T c35 = junction_capacitance<T>(y[2] - y[4]), c95 = junction_capacitance<T>(y[8] - y[4]);
    const T c810 = junction_capacitance<T>(y[7] - y[9]), c1410 = junction_capacitance<T>(y[13] - y[9]);
    Eigen::Matrix<T, 14, 1> q;
    q[0] = cgs * (yp[0] - yp[4]);
    q[1] = cgd * (yp[1] - yp[4]);
    q[2] = c35 * (yp[2] - yp[4]);
    q[3] = junction_capacitance<T>(y[3] - vdd) * yp[3];
    q[4] = -cgs * yp[0] - cgd * yp[1] - c35 * yp[2] + (cgs + cgd + c35 + c95 + c9) * yp[4] - c95 * yp[8];
    q[5] = cgs * yp[5];
    q[6] = cgd * yp[6];
    q[7] = c810 * (yp[7] - yp[9]);
    q[8] = c95 * (yp[8] - yp[4]);
    q[9] = -c810 * yp[7] + (c810 + c1410 + c9) * yp[9] - c1410 * yp[13];
    q[10] = cgs * yp[10];
    q[11] = cgd * yp[11];
    q[12] = junction_capacitance<T>(y[12]) * yp[12];
    q[13] = c1410 * (yp[13] - yp[9]);
    return q;
  }

  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(NandGate, nand, "0.1.0", "NAND gate, C(y) y' = f in residual form: n=14 (IVP Test Set)")
