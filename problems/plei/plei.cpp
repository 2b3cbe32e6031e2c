// The Pleiades (IVP Test Set `plei`, from Hairer, Norsett & Wanner I): seven stars in
// a plane, star i of mass i attracted by the others,
//   x_i'' = sum_{j != i} m_j (x_j - x_i) / r_ij^3,   y_i'' likewise,   r_ij = |p_i - p_j|,
// as a first-order system y = (x 7 | y 7 | x' 7 | y' 7), on [0, 3]. Not stiff: the
// test set's control case, where explicit methods win.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "plei_initial.inc"
#include "plei_reference.inc"

namespace {

class Pleiades : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Pleiades(const daekit::Params&) {
    info_.name = "plei";
    info_.title = "Pleiades: seven-body problem in the plane, non-stiff ODE";
    info_.n = 28;
    info_.tend = 3.0;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    for (const char* stem : {"x", "y", "vx", "vy"})
      for (std::size_t i = 1; i <= 7; ++i) info_.component_names.push_back(daekit::numbered(stem, i));
    daekit::use_testset_reference(info_, plei_reference_text, "plei.ref");
    info_.scored.assign(28, 0);
    for (int i = 0; i < 14; ++i) info_.scored[i] = 1;  // positions only
    y0_ = daekit::testset_data(plei_initial_text, "plei.y0", 28).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 28; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f.head<14>() = y.segment<14>(14);
    for (int i = 0; i < 7; ++i) {
      double ax = 0.0, ay = 0.0;
      for (int j = 0; j < 7; ++j) {
        if (j == i) continue;
        const double dx = y[j] - y[i], dy = y[7 + j] - y[7 + i];
        const double r2 = dx * dx + dy * dy, r3 = r2 * std::sqrt(r2);
        ax += (j + 1) * dx / r3;
        ay += (j + 1) * dy / r3;
      }
      f[14 + i] = ax;
      f[21 + i] = ay;
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView jac) override {
    for (int k = 0; k < 14; ++k) jac(k, 14 + k) = 1.0;
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 7; ++j) {
        if (j == i) continue;
        const double dx = y[j] - y[i], dy = y[7 + j] - y[7 + i];
        const double r2 = dx * dx + dy * dy, r = std::sqrt(r2), r3 = r2 * r, r5 = r3 * r2;
        const double m = j + 1;
        // d(m d / r^3) / d p_j; the same with the opposite sign on p_i.
        const double xx = m * (1.0 / r3 - 3.0 * dx * dx / r5), yy = m * (1.0 / r3 - 3.0 * dy * dy / r5);
        const double xy = -3.0 * m * dx * dy / r5;
        jac(14 + i, j) += xx, jac(14 + i, 7 + j) += xy, jac(21 + i, j) += xy, jac(21 + i, 7 + j) += yy;
        jac(14 + i, i) -= xx, jac(14 + i, 7 + i) -= xy, jac(21 + i, i) -= xy, jac(21 + i, 7 + i) -= yy;
      }
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Pleiades, plei, "0.1.0", "Pleiades seven-body problem: non-stiff ODE, n=28 (IVP Test Set)")
