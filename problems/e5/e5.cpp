// E5 from the stiff DETEST set (IVP Test Set `e5`): a chemical pyrolysis with rate
// constants from 7.89e-10 to 1.13e9, on [0, 1e13]. The solution decays to ~1e-290 (y1)
// and 0 (y4), so the test set runs it with atol = 1.7e-24 and scores it by mescd. The
// rate constants are real parameters under the test set's names A, B, C, M (reaction 3's
// constant is C M), with df/dp.
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "e5_initial.inc"
#include "e5_reference.inc"

namespace {

class E5 : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit E5(const daekit::Params&) {
    info_.name = "e5";
    info_.title = "E5 (stiff DETEST): chemical pyrolysis, extremely stiff ODE on [0, 1e13]";
    info_.n = 4;
    info_.tend = 1e13;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.component_names = daekit::numbered_names("y", 4);
    // The test set's runs use atol = 1.7e-24 with rtol ~ 1e-6..1e-10.
    info_.atol_scale.assign(4, 1.7e-24 / 1e-6);
    info_.rtol_hint = 1e-6;
    daekit::use_testset_reference(info_, e5_reference_text, "e5.ref");
    info_.parameters = {{"A", 7.89e-10, 7.89e-10}, {"B", 1.1e7, 1.1e7}, {"C", 1.13e3, 1.13e3}, {"M", 1e6, 1e6}};
    y0_ = daekit::testset_data(e5_initial_text, "e5.y0", 4).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 4; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    const double a = p(0), b = p(1), c = p(2), cm = c * p(3);
    const double r1 = a * y[0], r2 = b * y[0] * y[2], r3 = cm * y[1] * y[2], r4 = c * y[3];
    f[0] = -r1 - r2;
    f[1] = r1 - r3;
    f[3] = r2 - r4;
    f[2] = f[1] - f[3];
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    const double a = p(0), b = p(1), c = p(2), cm = c * p(3);
    j(0, 0) = -a - b * y[2], j(0, 2) = -b * y[0];
    j(1, 0) = a, j(1, 1) = -cm * y[2], j(1, 2) = -cm * y[1];
    j(2, 0) = a - b * y[2], j(2, 1) = -cm * y[2], j(2, 2) = -b * y[0] - cm * y[1], j(2, 3) = c;
    j(3, 0) = b * y[2], j(3, 2) = b * y[0], j(3, 3) = -c;
    return daekit::Eval::ok;
  }

  // Columns A, B, C, M; f3 = f2 - f4 throughout.
  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    const double c = p(2), m = p(3), y23 = y[1] * y[2];
    d(0, 0) = -y[0], d(1, 0) = y[0], d(2, 0) = y[0];
    d(0, 1) = -y[0] * y[2], d(3, 1) = y[0] * y[2], d(2, 1) = -y[0] * y[2];
    d(1, 2) = -m * y23, d(3, 2) = -y[3], d(2, 2) = -m * y23 + y[3];
    d(1, 3) = -c * y23, d(2, 3) = -c * y23;
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(E5, e5, "0.1.0", "E5 (stiff DETEST) chemical pyrolysis: extremely stiff ODE, n=4 (IVP Test Set)")
