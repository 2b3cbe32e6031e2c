// The Oregonator (IVP Test Set `orego`): Field and Noyes' model of the Belousov-
// Zhabotinskii reaction, three species, on [0, 360]:
//   y1' = s (y2 + y1 (1 - q y1 - y2)),  y2' = (y3 - (1 + y1) y2) / s,  y3' = w (y1 - y3)
// with s = 77.27, q = 8.375e-6, w = 0.161 (real parameters under these names, the test
// set's, with df/dp): stiff, periodic, with components that sweep over several decades.
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "orego_initial.inc"
#include "orego_reference.inc"

namespace {

class Orego : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Orego(const daekit::Params&) {
    info_.name = "orego";
    info_.title = "Oregonator: Belousov-Zhabotinskii reaction, stiff periodic ODE";
    info_.n = 3;
    info_.tend = 360.0;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.component_names = daekit::numbered_names("y", 3);
    daekit::use_testset_reference(info_, orego_reference_text, "orego.ref");
    info_.parameters = {{"s", 77.27, 77.27}, {"q", 8.375e-6, 8.375e-6}, {"w", 0.161, 0.161}};
    y0_ = daekit::testset_data(orego_initial_text, "orego.y0", 3).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { y << y0_[0], y0_[1], y0_[2]; }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    const double s = p(0), q = p(1), w = p(2);
    f[0] = s * (y[1] + y[0] * (1.0 - q * y[0] - y[1]));
    f[1] = (y[2] - (1.0 + y[0]) * y[1]) / s;
    f[2] = w * (y[0] - y[2]);
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    const double s = p(0), q = p(1), w = p(2);
    j(0, 0) = s * (1.0 - 2.0 * q * y[0] - y[1]), j(0, 1) = s * (1.0 - y[0]);
    j(1, 0) = -y[1] / s, j(1, 1) = -(1.0 + y[0]) / s, j(1, 2) = 1.0 / s;
    j(2, 0) = w, j(2, 2) = -w;
    return daekit::Eval::ok;
  }

  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    const double s = p(0), q = p(1);
    d(0, 0) = y[1] + y[0] * (1.0 - q * y[0] - y[1]);
    d(1, 0) = -(y[2] - (1.0 + y[0]) * y[1]) / (s * s);
    d(0, 1) = -s * y[0] * y[0];
    d(2, 2) = y[0] - y[2];
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Orego, orego, "0.1.0", "Oregonator (Belousov-Zhabotinskii): stiff periodic ODE, n=3 (IVP Test Set)")
