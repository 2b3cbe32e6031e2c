// The railway wheelset (IVP Test Set `wheel`) in residual form: index-2 formulation,
// 17 unknowns y = (p 5 | v 5 | beta | q 4 | lambda 2) with the contact coordinates q =
// (psi_R, xi_R, psi_L, xi_L) and the scaled multipliers last (the test set's order),
// on [0, 10]. The inertia terms couple theta' and beta' through sin(phi), so the
// mass matrix depends on the state: F(t, y, y') = A(y) y' - f(y). dF/dy + cj dF/dy' is
// exact, by the SDK's forward-mode differentiation of the residual.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "wheel_initial.inc"
#include "wheel_reference.inc"
#include "wheel_slope.inc"
#include "wheelset_model.hpp"

namespace {

using namespace daekit::wheelset;

class Wheelset : public daekit::AutoDiffResidualProblem<Wheelset> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Wheelset(const daekit::Params&) {
    auto& in = info_;
    in.name = "wheel";
    in.title = "railway wheelset: contact mechanics, index-2 DAE in residual form";
    in.n = 17;
    in.tend = 10.0;
    in.form = daekit::Form::residual_only;
    in.consistent_y0 = true;
    in.has_yp0 = true;
    in.differential.assign(17, 0);
    for (int i = 0; i < 11; ++i) in.differential[i] = 1;
    in.index.assign(17, 1);
    in.index[15] = in.index[16] = 2;
    in.component_names = {"x",       "y",       "z",     "theta", "phi",  "v_x",   "v_y",   "v_z",     "v_theta",
                          "v_phi",   "beta",    "psi_R", "xi_R",  "psi_L", "xi_L", "lambda1", "lambda2"};
    daekit::use_testset_reference(info_, wheel_reference_text, "wheel.ref");
    y0_ = daekit::testset_data(wheel_initial_text, "wheel.y0", 17).values;
    yp0_ = daekit::testset_data(wheel_slope_text, "wheel.yp0", 17).values;
    differentiate_residual_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 17; ++i) y[i] = y0_[i], yp[i] = yp0_[i];
  }

  template <class T>
  daekit::Eval residual_of(double, const T* y, const T* yp, T* r) {
    using std::sin, std::cos;
    // The model's own order: multipliers at 12-13, then psi_L, xi_L, psi_R, xi_R.
    T model[17], f[17];
    for (int i = 0; i < 11; ++i) model[i] = y[i];
    model[11] = y[15], model[12] = y[16];
    model[13] = y[13], model[14] = y[14], model[15] = y[11], model[16] = y[12];
    if (!forces(model, f)) return daekit::Eval::recoverable;  // derailment or degenerate contact
    const T sip = sin(y[4]), cop = cos(y[4]);
    for (int i = 0; i < 5; ++i) r[i] = yp[i] - f[i];
    for (int i = 5; i < 8; ++i) r[i] = wheel_mass * yp[i] - f[i];
    r[8] = inertia2 * cop * yp[8] - f[8];
    r[9] = inertia2 * yp[9] - f[9];
    r[10] = inertia1 * sip * yp[8] + inertia1 * yp[10] - f[10];
    for (int i = 11; i < 17; ++i) r[i] = -f[i];
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_, yp0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Wheelset, wheel, "0.1.0", "railway wheelset, residual form: index-2 DAE, n=17 (IVP Test Set)")
