// The ring modulator (IVP Test Set `ringmod`, Horneber 1976 / Denk & Rentrop): a
// circuit that mixes a low-frequency signal uin1 = 0.5 sin(2e3 pi t) with a
// high-frequency one uin2 = 2 sin(2e4 pi t) through a ring of four diodes, 15
// unknowns (node voltages and inductor currents), on [0, 1e-3]. With the parasitic
// capacitance Cs = 2e-12 it is a stiff, highly oscillatory ODE (Cs = 0 would make it
// an index-2 DAE). The diode law is exponential: f refuses arguments whose
// exponential would overflow, as the source does.
#include <algorithm>
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "ringmod_initial.inc"
#include "ringmod_reference.inc"

namespace {

constexpr double c = 1.6e-8, cp = 1e-8, r = 25e3, rp = 50.0, lh = 4.45, ls1 = 2e-3, ls2 = 5e-4, ls3 = 5e-4;
constexpr double rg1 = 36.3, rg2 = 17.3, rg3 = 17.3, ri = 5e1, rc = 6e2;
constexpr double gamma_d = 40.67286402e-9, delta_d = 17.7493332, pi = 3.141592653589793238462643383;

// The four diode voltages of the ring at (t, y).
struct Diodes {
  double u[4];
  Diodes(double t, daekit::ConstVector y) {
    const double uin2 = 2.0 * std::sin(2e4 * pi * t);
    u[0] = y[2] - y[4] - y[6] - uin2;
    u[1] = -y[3] + y[5] - y[6] - uin2;
    u[2] = y[3] + y[4] + y[6] + uin2;
    u[3] = -y[2] - y[5] + y[6] + uin2;
  }
  bool overflows() const { return delta_d * std::max({u[0], u[1], u[2], u[3]}) > 300.0; }
};

class RingModulator : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"Cs", "2e-12", "parasitic capacitance of the diodes (the test set's reference is for 2e-12)"}};
  }

  explicit RingModulator(const daekit::Params& params) : cs_(params.real("Cs")) {
    if (!(cs_ > 0.0)) throw std::invalid_argument("ringmod: Cs must be positive (Cs = 0 is the index-2 DAE)");
    info_.name = "ringmod";
    info_.title = "ring modulator: stiff, highly oscillatory circuit ODE";
    info_.n = 15;
    info_.tend = 1e-3;
    info_.analytic_jacobian = true;
    info_.component_names = daekit::numbered_names("y", 15);
    if (cs_ == 2e-12) daekit::use_testset_reference(info_, ringmod_reference_text, "ringmod.ref");
    y0_ = daekit::testset_data(ringmod_initial_text, "ringmod.y0", 15).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 15; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    const Diodes d(t, y);
    if (d.overflows()) return daekit::Eval::recoverable;
    double q[4];
    for (int k = 0; k < 4; ++k) q[k] = gamma_d * (std::exp(delta_d * d.u[k]) - 1.0);
    const double uin1 = 0.5 * std::sin(2e3 * pi * t);
    f[0] = (y[7] - 0.5 * y[9] + 0.5 * y[10] + y[13] - y[0] / r) / c;
    f[1] = (y[8] - 0.5 * y[11] + 0.5 * y[12] + y[14] - y[1] / r) / c;
    f[2] = (y[9] - q[0] + q[3]) / cs_;
    f[3] = (-y[10] + q[1] - q[2]) / cs_;
    f[4] = (y[11] + q[0] - q[2]) / cs_;
    f[5] = (-y[12] - q[1] + q[3]) / cs_;
    f[6] = (-y[6] / rp + q[0] + q[1] - q[2] - q[3]) / cp;
    f[7] = -y[0] / lh;
    f[8] = -y[1] / lh;
    f[9] = (0.5 * y[0] - y[2] - rg2 * y[9]) / ls2;
    f[10] = (-0.5 * y[0] + y[3] - rg3 * y[10]) / ls3;
    f[11] = (0.5 * y[1] - y[4] - rg2 * y[11]) / ls2;
    f[12] = (-0.5 * y[1] + y[5] - rg3 * y[12]) / ls3;
    f[13] = (-y[0] + uin1 - (ri + rg1) * y[13]) / ls1;
    f[14] = (-y[1] - (rc + rg1) * y[14]) / ls1;
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double t, daekit::ConstVector y, daekit::MatrixView j) override {
    const Diodes d(t, y);
    if (d.overflows()) return daekit::Eval::recoverable;
    double p[4];  // d q_k / d u_k
    for (int k = 0; k < 4; ++k) p[k] = gamma_d * delta_d * std::exp(delta_d * d.u[k]);
    j(0, 0) = -1.0 / (c * r), j(0, 7) = 1.0 / c, j(0, 9) = -0.5 / c, j(0, 10) = 0.5 / c, j(0, 13) = 1.0 / c;
    j(1, 1) = -1.0 / (c * r), j(1, 8) = 1.0 / c, j(1, 11) = -0.5 / c, j(1, 12) = 0.5 / c, j(1, 14) = 1.0 / c;
    j(2, 2) = (-p[0] - p[3]) / cs_, j(2, 4) = p[0] / cs_, j(2, 5) = -p[3] / cs_, j(2, 6) = (p[0] + p[3]) / cs_;
    j(2, 9) = 1.0 / cs_;
    j(3, 3) = (-p[1] - p[2]) / cs_, j(3, 4) = -p[2] / cs_, j(3, 5) = p[1] / cs_, j(3, 6) = (-p[1] - p[2]) / cs_;
    j(3, 10) = -1.0 / cs_;
    j(4, 2) = p[0] / cs_, j(4, 3) = -p[2] / cs_, j(4, 4) = (-p[0] - p[2]) / cs_, j(4, 6) = (-p[0] - p[2]) / cs_;
    j(4, 11) = 1.0 / cs_;
    j(5, 2) = -p[3] / cs_, j(5, 3) = p[1] / cs_, j(5, 5) = (-p[1] - p[3]) / cs_, j(5, 6) = (p[1] + p[3]) / cs_;
    j(5, 12) = -1.0 / cs_;
    j(6, 2) = (p[0] + p[3]) / cp, j(6, 3) = (-p[1] - p[2]) / cp, j(6, 4) = (-p[0] - p[2]) / cp;
    j(6, 5) = (p[1] + p[3]) / cp, j(6, 6) = (-p[0] - p[1] - p[2] - p[3] - 1.0 / rp) / cp;
    j(7, 0) = -1.0 / lh;
    j(8, 1) = -1.0 / lh;
    j(9, 0) = 0.5 / ls2, j(9, 2) = -1.0 / ls2, j(9, 9) = -rg2 / ls2;
    j(10, 0) = -0.5 / ls3, j(10, 3) = 1.0 / ls3, j(10, 10) = -rg3 / ls3;
    j(11, 1) = 0.5 / ls2, j(11, 4) = -1.0 / ls2, j(11, 11) = -rg2 / ls2;
    j(12, 1) = -0.5 / ls3, j(12, 5) = 1.0 / ls3, j(12, 12) = -rg3 / ls3;
    j(13, 0) = -1.0 / ls1, j(13, 13) = -(ri + rg1) / ls1;
    j(14, 1) = -1.0 / ls1, j(14, 14) = -(rc + rg1) / ls1;
    return daekit::Eval::ok;
  }

 private:
  double cs_;
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(RingModulator, ringmod, "0.1.0", "ring modulator: stiff oscillatory circuit ODE, n=15 (IVP Test Set)")
