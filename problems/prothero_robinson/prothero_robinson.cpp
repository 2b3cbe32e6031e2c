// Prothero and Robinson's stiff test equation (Math. Comp. 28 (1974) 145-162):
//   y' = L (y - g(t)) + g'(t),  g(t) = sin(t) + cos(2 t),  y(0) = g(0),
// whose exact solution is y = g for every L. With L = -1e6 the solution is smooth
// while the problem is as stiff as any in the library, and it is not autonomous: the
// test for a method's treatment of f_t (Rosenbrock time-derivative weights) and for
// order reduction, with an exact reference at any time. L is a real parameter
// (`--param L=-2`): the solution's sensitivities are closed forms too, dy/dL = 0 (y = g
// for every L) and dy/dy0 = e^{L t}.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <span>
#include <stdexcept>

namespace {

class ProtheroRobinson : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"tend", "10", "end of the span"}};
  }

  explicit ProtheroRobinson(const daekit::Params& params) {
    const double tend = params.real("tend");
    if (!(tend > 0.0) || !std::isfinite(tend)) throw std::invalid_argument("prothero_robinson: tend must be positive");
    info_.name = "prothero_robinson";
    info_.title = "Prothero-Robinson equation (stiff, non-autonomous, exact solution)";
    // The stiffness, negative; the solution is the same for every L.
    info_.parameters = {{"L", -1e6, 0.0}};
    info_.n = 1;
    info_.tend = tend;
    info_.analytic_jacobian = true;
    info_.analytic_dfdt = true;
    info_.component_names = {"y"};
    info_.reference = {g(tend)};
    info_.reference_t = tend;
    info_.reference_source = "closed form: y(t) = sin(t) + cos(2t)";
    info_.reference_at_any_time = true;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = g(0.0); }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    y[0] = g(t);
    return daekit::Eval::ok;
  }

  daekit::Eval set_parameters(std::span<const double> p) override {
    if (!(p[0] < 0.0) || !std::isfinite(p[0])) return fail("prothero_robinson: L must be negative");
    return daekit::Problem::set_parameters(p);
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = p(0) * (y[0] - g(t)) + dg(t);
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    j(0, 0) = p(0);
    return daekit::Eval::ok;
  }
  daekit::Eval dfdt(double t, daekit::ConstVector, daekit::Vector df) override {
    df[0] = -p(0) * dg(t) + d2g(t);
    return daekit::Eval::ok;
  }
  daekit::Eval dfdp(double t, daekit::ConstVector y, daekit::MatrixView d) override {
    d(0, 0) = y[0] - g(t);
    return daekit::Eval::ok;
  }

 private:
  static double g(double t) { return std::sin(t) + std::cos(2.0 * t); }
  static double dg(double t) { return std::cos(t) - 2.0 * std::sin(2.0 * t); }
  static double d2g(double t) { return -std::sin(t) - 4.0 * std::cos(2.0 * t); }
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(ProtheroRobinson, prothero_robinson, "0.1.0",
                      "Prothero-Robinson y' = L (y - g) + g': stiff, non-autonomous, exact solution")
