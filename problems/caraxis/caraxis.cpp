// The car axis (IVP Test Set `caraxis`): a simplified car axis, a rigid rod of
// length L whose left end hangs on a spring and whose right wheel rolls over a
// bumpy road yb = r sin(w t); the wheels' springs are stiff (eps = 1e-2). Index-3
// DAE with M = diag(I4, k I4, 0, 0), k = m eps^2 / 2:
//   p' = q,  k q' = spring forces + constraint forces - k g,  0 = xb xl + yb yl,
//   0 = (xl - xr)^2 + (yl - yr)^2 - L^2,
// p = (xl, yl, xr, yr) index 1, q index 2, lambda index 3. Span [0, 3].
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "caraxis_initial.inc"
#include "caraxis_reference.inc"

namespace {

constexpr double eps = 1e-2, mass_total = 10.0, length = 1.0, rest_length = 0.5, radius = 0.1, omega = 10.0,
                 gravity = 1.0;
constexpr double k = mass_total * eps * eps / 2.0;

struct Road {
  double xb, yb;
  explicit Road(double t) : yb(radius * std::sin(omega * t)) { xb = std::sqrt(length * length - yb * yb); }
};

class CarAxis : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit CarAxis(const daekit::Params&) {
    info_.name = "caraxis";
    info_.title = "car axis: stiff index-3 multibody DAE";
    info_.n = 10;
    info_.tend = 3.0;
    info_.mass = daekit::MassKind::constant;
    info_.analytic_jacobian = true;
    info_.consistent_y0 = true;
    info_.has_yp0 = true;
    info_.differential = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    info_.index = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3};
    info_.component_names = {"xl", "yl", "xr", "yr", "v_xl", "v_yl", "v_xr", "v_yr", "lambda1", "lambda2"};
    daekit::use_testset_reference(info_, caraxis_reference_text, "caraxis.ref");
    y0_ = daekit::testset_data(caraxis_initial_text, "caraxis.y0", 10).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 10; ++i) y[i] = y0_[i];
    // y' from M y' = f(0, y0); the multipliers' derivatives are not determined: 0.
    Eigen::VectorXd f(10);
    rhs(0.0, daekit::ConstVector(y.data(), 10), daekit::Vector(f.data(), 10));
    yp.setZero();
    for (int i = 0; i < 4; ++i) yp[i] = f[i], yp[4 + i] = f[4 + i] / k;
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    const Road road(t);
    const double xl = y[0], yl = y[1], xr = y[2], yr = y[3], lam1 = y[8], lam2 = y[9];
    const double ll = std::sqrt(xl * xl + yl * yl);
    const double dx = xr - road.xb, dy = yr - road.yb, lr = std::sqrt(dx * dx + dy * dy);
    for (int i = 0; i < 4; ++i) f[i] = y[4 + i];
    f[4] = (rest_length - ll) * xl / ll + lam1 * road.xb + 2.0 * lam2 * (xl - xr);
    f[5] = (rest_length - ll) * yl / ll + lam1 * road.yb + 2.0 * lam2 * (yl - yr) - k * gravity;
    f[6] = (rest_length - lr) * dx / lr - 2.0 * lam2 * (xl - xr);
    f[7] = (rest_length - lr) * dy / lr - 2.0 * lam2 * (yl - yr) - k * gravity;
    f[8] = road.xb * xl + road.yb * yl;
    f[9] = (xl - xr) * (xl - xr) + (yl - yr) * (yl - yr) - length * length;
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double t, daekit::ConstVector y, daekit::MatrixView j) override {
    const Road road(t);
    const double xl = y[0], yl = y[1], xr = y[2], yr = y[3], lam2 = y[9];
    const double ll = std::sqrt(xl * xl + yl * yl), ll3 = ll * ll * ll;
    const double dx = xr - road.xb, dy = yr - road.yb, lr = std::sqrt(dx * dx + dy * dy), lr3 = lr * lr * lr;
    for (int i = 0; i < 4; ++i) j(i, 4 + i) = 1.0;
    // Springs: d/dx of (L0 - |x|) x / |x|, for the left end and the right wheel.
    j(4, 0) = rest_length * yl * yl / ll3 - 1.0 + 2.0 * lam2, j(4, 1) = -rest_length * xl * yl / ll3;
    j(5, 0) = -rest_length * xl * yl / ll3, j(5, 1) = rest_length * xl * xl / ll3 - 1.0 + 2.0 * lam2;
    j(6, 2) = rest_length * dy * dy / lr3 - 1.0 + 2.0 * lam2, j(6, 3) = -rest_length * dx * dy / lr3;
    j(7, 2) = -rest_length * dx * dy / lr3, j(7, 3) = rest_length * dx * dx / lr3 - 1.0 + 2.0 * lam2;
    j(4, 2) = -2.0 * lam2, j(5, 3) = -2.0 * lam2, j(6, 0) = -2.0 * lam2, j(7, 1) = -2.0 * lam2;
    j(4, 8) = road.xb, j(5, 8) = road.yb;
    j(4, 9) = 2.0 * (xl - xr), j(5, 9) = 2.0 * (yl - yr), j(6, 9) = -2.0 * (xl - xr), j(7, 9) = -2.0 * (yl - yr);
    j(8, 0) = road.xb, j(8, 1) = road.yb;
    j(9, 0) = 2.0 * (xl - xr), j(9, 1) = 2.0 * (yl - yr), j(9, 2) = -2.0 * (xl - xr), j(9, 3) = -2.0 * (yl - yr);
    return daekit::Eval::ok;
  }

  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    for (int i = 0; i < 4; ++i) m(i, i) = 1.0, m(4 + i, 4 + i) = k;
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(CarAxis, caraxis, "0.1.0", "car axis: stiff index-3 multibody DAE, n=10 (IVP Test Set)")
