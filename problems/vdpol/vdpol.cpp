// Van der Pol's oscillator in the test set's scaled form `vdpol`:
//   y1' = y2,   y2' = ((1 - y1^2) y2 - y1) / eps,   eps = 1e-6, on [0, 2],
// a very stiff relaxation oscillation with fast jumps. eps is a real parameter
// (`--param eps=1e-3`; sensitivities with respect to it), the reference is for 1e-6.
#include <cmath>
#include <daekit/sdk/data_text.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <span>
#include <stdexcept>

#include "vdpol_initial.inc"
#include "vdpol_reference.inc"
#include "vdpolm_initial.inc"
#include "vdpolm_reference.inc"
#include <daekit/sdk/testset.hpp>

namespace {

class VanDerPol : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit VanDerPol(const daekit::Params&) {
    info_.name = "vdpol";
    info_.title = "Van der Pol oscillator, scaled form (stiff ODE)";
    info_.parameters = {{"eps", 1e-6, 0.0}};  // the stiffness; the test set's reference is for 1e-6
    info_.n = 2;
    info_.tend = 2.0;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.component_names = {"y1", "y2"};
    auto y0 = daekit::parse_data_text(vdpol_initial_text, "vdpol.y0");
    if (y0.values.size() != 2) throw std::runtime_error("vdpol.y0 has the wrong length");
    y0_ = y0.values;
    auto ref = daekit::parse_data_text(vdpol_reference_text, "vdpol.ref");
    if (ref.values.size() != 2) throw std::runtime_error("vdpol.ref has the wrong length");
    info_.reference = ref.values;
    info_.reference_t = info_.tend;
    info_.reference_source = "IVP Test Set 2.4 (" + ref.comment_field("reference computed with") + ")";
  }

  daekit::Eval set_parameters(std::span<const double> p) override {
    if (!(p[0] > 0.0) || !std::isfinite(p[0])) return fail("vdpol: eps must be positive");
    return daekit::Problem::set_parameters(p);
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { y << y0_[0], y0_[1]; }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = y[1];
    f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / p(0);
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    j(0, 1) = 1.0;
    j(1, 0) = (-2.0 * y[0] * y[1] - 1.0) / p(0);
    j(1, 1) = (1.0 - y[0] * y[0]) / p(0);
    return daekit::Eval::ok;
  }

  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    d(1, 0) = -((1.0 - y[0] * y[0]) * y[1] - y[0]) / (p(0) * p(0));
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

// The unscaled form of the test set's `vdpolm`, the variant most ports use:
//   y1' = y2,   y2' = mu (1 - y1^2) y2 - y1,   mu = 1000, on [0, 2000].
// Its reference was computed separately (vdpol's y2 equals 1000 vdpolm's y2 only to
// the last 3-4 digits).
class VanDerPolUnscaled : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit VanDerPolUnscaled(const daekit::Params&) {
    info_.name = "vdpolm";
    info_.title = "Van der Pol oscillator, unscaled form, mu=1000 (stiff ODE)";
    info_.n = 2;
    info_.tend = 2000.0;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.component_names = {"y1", "y2"};
    daekit::use_testset_reference(info_, vdpolm_reference_text, "vdpolm.ref");
    y0_ = daekit::testset_data(vdpolm_initial_text, "vdpolm.y0", 2).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { y << y0_[0], y0_[1]; }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = y[1];
    f[1] = mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    j(0, 1) = 1.0;
    j(1, 0) = -2.0 * mu * y[0] * y[1] - 1.0;
    j(1, 1) = mu * (1.0 - y[0] * y[0]);
    return daekit::Eval::ok;
  }

 private:
  static constexpr double mu = 1000.0;
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(VanDerPol, vdpol, "0.1.0", "Van der Pol oscillator, scaled, eps=1e-6: very stiff ODE (IVP Test Set)")
DAEKIT_EXPORT_PROBLEM(VanDerPolUnscaled, vdpolm, "0.1.0",
                      "Van der Pol oscillator, unscaled, mu=1000 on [0, 2000]: stiff ODE (IVP Test Set)")
