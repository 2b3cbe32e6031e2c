// The transistor amplifier (IVP Test Set `transamp`): an electrical circuit with two
// bipolar transistors, nine resistors and five capacitors, driven by a sinusoidal
// input uet = 0.1 sin(200 pi t), on [0, 0.2]. Eight node voltages; the capacitors
// couple neighbouring nodes, so the constant mass matrix is singular (rank 5) and
// not diagonal. Index-1 DAE.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "transamp_initial.inc"
#include "transamp_reference.inc"
#include "transamp_slope.inc"

namespace {

constexpr double ub = 6.0, uf = 0.026, alpha = 0.99, beta = 1e-6, r0 = 1000.0, r = 9000.0;
constexpr double c[5] = {1e-6, 2e-6, 3e-6, 4e-6, 5e-6};
constexpr double pi = 3.1415926535897931086244;

class TransistorAmplifier : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit TransistorAmplifier(const daekit::Params&) {
    info_.name = "transamp";
    info_.title = "transistor amplifier: index-1 DAE with a singular non-diagonal mass matrix";
    info_.n = 8;
    info_.tend = 0.2;
    info_.mass = daekit::MassKind::constant;
    info_.analytic_jacobian = true;
    info_.consistent_y0 = true;
    info_.has_yp0 = true;
    info_.component_names = daekit::numbered_names("U", 8);
    daekit::use_testset_reference(info_, transamp_reference_text, "transamp.ref");
    y0_ = daekit::testset_data(transamp_initial_text, "transamp.y0", 8).values;
    yp0_ = daekit::testset_data(transamp_slope_text, "transamp.yp0", 8).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 8; ++i) y[i] = y0_[i], yp[i] = yp0_[i];
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    const double uet = 0.1 * std::sin(200.0 * pi * t);
    const double fac1 = beta * (std::exp((y[1] - y[2]) / uf) - 1.0);
    const double fac2 = beta * (std::exp((y[4] - y[5]) / uf) - 1.0);
    f[0] = (y[0] - uet) / r0;
    f[1] = y[1] / r + (y[1] - ub) / r + (1.0 - alpha) * fac1;
    f[2] = y[2] / r - fac1;
    f[3] = (y[3] - ub) / r + alpha * fac1;
    f[4] = y[4] / r + (y[4] - ub) / r + (1.0 - alpha) * fac2;
    f[5] = y[5] / r - fac2;
    f[6] = (y[6] - ub) / r + alpha * fac2;
    f[7] = y[7] / r;
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    // d fac / d(base - emitter voltage) of the two transistors.
    const double p1 = beta * std::exp((y[1] - y[2]) / uf) / uf, p2 = beta * std::exp((y[4] - y[5]) / uf) / uf;
    j(0, 0) = 1.0 / r0;
    j(1, 1) = 2.0 / r + (1.0 - alpha) * p1, j(1, 2) = -(1.0 - alpha) * p1;
    j(2, 1) = -p1, j(2, 2) = 1.0 / r + p1;
    j(3, 1) = alpha * p1, j(3, 2) = -alpha * p1, j(3, 3) = 1.0 / r;
    j(4, 4) = 2.0 / r + (1.0 - alpha) * p2, j(4, 5) = -(1.0 - alpha) * p2;
    j(5, 4) = -p2, j(5, 5) = 1.0 / r + p2;
    j(6, 4) = alpha * p2, j(6, 5) = -alpha * p2, j(6, 6) = 1.0 / r;
    j(7, 7) = 1.0 / r;
    return daekit::Eval::ok;
  }

  // The capacitors: C1 between nodes 1 and 2, C2 at node 3, C3 between 4 and 5, C4 at
  // node 6, C5 between 7 and 8 (the test set's signs: M y' = f).
  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    auto coupling = [&](int a, int b, double cap) {
      m(a, a) = -cap, m(a, b) = cap;
      m(b, a) = cap, m(b, b) = -cap;
    };
    coupling(0, 1, c[0]);
    m(2, 2) = -c[1];
    coupling(3, 4, c[2]);
    m(5, 5) = -c[3];
    coupling(6, 7, c[4]);
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_, yp0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(TransistorAmplifier, transamp, "0.1.0",
                      "transistor amplifier: index-1 DAE, non-diagonal singular M, n=8 (IVP Test Set)")
