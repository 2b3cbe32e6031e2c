// The Chemical Akzo Nobel problem (IVP Test Set `chemakzo`): a reaction in a
// well-stirred vessel with CO2 fed in, five reacting species and an algebraic
// equilibrium for the sixth (y6 = Ks y1 y4), on [0, 180]. Index-1 DAE with
// M = diag(1, 1, 1, 1, 1, 0). The rates contain sqrt(y2): a negative y2 is an
// evaluation the solver must retry with a smaller step. Its constants are real
// parameters under the test set's names (k1-k4, K, klA, Ks, pCO2, H), for
// sensitivities and --param; df/dp by the SDK's differences. y6(0) = Ks y1(0) y4(0)
// follows Ks (the test set's y0 file holds that product at the nominal Ks, to the bit).
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "chemakzo_initial.inc"
#include "chemakzo_reference.inc"

namespace {

class ChemAkzo : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit ChemAkzo(const daekit::Params&) {
    info_.name = "chemakzo";
    info_.title = "Chemical Akzo Nobel: reaction kinetics with an equilibrium, index-1 DAE";
    info_.n = 6;
    info_.tend = 180.0;
    info_.mass = daekit::MassKind::constant;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.consistent_y0 = true;
    info_.differential = {1, 1, 1, 1, 1, 0};
    info_.component_names = daekit::numbered_names("y", 6);
    daekit::use_testset_reference(info_, chemakzo_reference_text, "chemakzo.ref");
    y0_ = daekit::testset_data(chemakzo_initial_text, "chemakzo.y0", 6).values;
    info_.parameters = {{"k1", 18.7, 18.7},   {"k2", 0.58, 0.58}, {"k3", 0.09, 0.09},
                        {"k4", 0.42, 0.42},   {"K", 34.4, 34.4},  {"klA", 3.3, 3.3},
                        {"Ks", 115.83, 115.83}, {"pCO2", 0.9, 0.9}, {"H", 737.0, 737.0}};
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 5; ++i) y[i] = y0_[i];
    y[5] = p(6) * y0_[0] * y0_[3];  // the equilibrium, consistent at any Ks
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    if (y[1] < 0.0) return daekit::Eval::recoverable;  // sqrt(y2)
    const double k1 = p(0), k2 = p(1), k3 = p(2), k4 = p(3), kbig = p(4), kla = p(5), ks = p(6), po2 = p(7),
                 hen = p(8);
    const double s2 = std::sqrt(y[1]);
    const double r1 = k1 * std::pow(y[0], 4) * s2, r2 = k2 * y[2] * y[3], r3 = k2 / kbig * y[0] * y[4];
    const double r4 = k3 * y[0] * y[3] * y[3], r5 = k4 * y[5] * y[5] * s2, fin = kla * (po2 / hen - y[1]);
    f[0] = -2.0 * r1 + r2 - r3 - r4;
    f[1] = -0.5 * r1 - r4 - 0.5 * r5 + fin;
    f[2] = r1 - r2 + r3;
    f[3] = -r2 + r3 - 2.0 * r4;
    f[4] = r2 - r3 + r5;
    f[5] = ks * y[0] * y[3] - y[5];
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    if (y[1] <= 0.0) return daekit::Eval::recoverable;  // d sqrt(y2) / dy2
    const double k1 = p(0), k2 = p(1), k3 = p(2), k4 = p(3), kbig = p(4), kla = p(5), ks = p(6);
    const double s2 = std::sqrt(y[1]);
    const double r11 = 4.0 * k1 * std::pow(y[0], 3) * s2, r12 = 0.5 * k1 * std::pow(y[0], 4) / s2;
    const double r23 = k2 * y[3], r24 = k2 * y[2], r31 = k2 / kbig * y[4], r35 = k2 / kbig * y[0];
    const double r41 = k3 * y[3] * y[3], r44 = 2.0 * k3 * y[0] * y[3];
    const double r52 = 0.5 * k4 * y[5] * y[5] / s2, r56 = 2.0 * k4 * y[5] * s2;
    j(0, 0) = -2.0 * r11 - r31 - r41, j(0, 1) = -2.0 * r12, j(0, 2) = r23, j(0, 3) = r24 - r44, j(0, 4) = -r35;
    j(1, 0) = -0.5 * r11 - r41, j(1, 1) = -0.5 * r12 - 0.5 * r52 - kla, j(1, 3) = -r44, j(1, 5) = -0.5 * r56;
    j(2, 0) = r11 + r31, j(2, 1) = r12, j(2, 2) = -r23, j(2, 3) = -r24, j(2, 4) = r35;
    j(3, 0) = r31 - 2.0 * r41, j(3, 2) = -r23, j(3, 3) = -r24 - 2.0 * r44, j(3, 4) = r35;
    j(4, 0) = -r31, j(4, 1) = r52, j(4, 2) = r23, j(4, 3) = r24, j(4, 4) = -r35, j(4, 5) = r56;
    j(5, 0) = ks * y[3], j(5, 3) = ks * y[0], j(5, 5) = -1.0;
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(ChemAkzo, chemakzo, "0.1.0", "Chemical Akzo Nobel kinetics: index-1 DAE, n=6 (IVP Test Set)")
