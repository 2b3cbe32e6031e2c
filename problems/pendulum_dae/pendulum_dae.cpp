// The mathematical pendulum as a DAE in Cartesian coordinates, with unit mass:
//   x' = u,  y' = v,  u' = -lambda x,  v' = -lambda y - g,  0 = constraint,
// g a real parameter (`--param g=...`, nominal 9.81: sensitivities with respect to it),
// the constraint on positions (x^2 + y^2 - L^2: index 3) or on velocities
// (x u + y v: index 2), released horizontally at rest (consistent for both, lambda = 0).
//
// Its reference at tend comes from the same motion in the angle theta (x = L sin theta,
// y = -L cos theta): theta'' = -(g/L) sin theta, an ODE integrated here by the classical
// Runge-Kutta method in long double with 2^16 steps (error far below 1e-12), and
// lambda = (L^2 theta'^2 + g L cos theta) / L^2 from differentiating the constraint twice.
// The test of what accuracy each DAE index gets: positions are index 1, velocities
// index 2 (index 3 form) or 1, the multiplier index 3 or 2.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <numbers>
#include <stdexcept>

namespace {

constexpr double nominal_gravity = 9.81;

class PendulumDae : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"index", "2", "2: velocity constraint x u + y v = 0; 3: position constraint x^2 + y^2 = L^2"},
            {"L", "1", "length (m)"},
            {"tend", "3", "end of the span (s)"}};
  }

  explicit PendulumDae(const daekit::Params& p)
      : index_(static_cast<int>(p.integer("index"))), L_(p.real("L")) {
    const double tend = p.real("tend");
    if (index_ != 2 && index_ != 3) throw std::invalid_argument("pendulum_dae: index must be 2 or 3");
    if (!(L_ > 0.0) || !std::isfinite(L_)) throw std::invalid_argument("pendulum_dae: L must be positive");
    if (!(tend > 0.0) || !std::isfinite(tend)) throw std::invalid_argument("pendulum_dae: tend must be positive");
    info_.name = "pendulum_dae";
    info_.title = "pendulum in Cartesian coordinates, " +
                  std::string(index_ == 3 ? "position constraint (index 3)" : "velocity constraint (index 2)");
    info_.n = 5;
    info_.tend = tend;
    info_.mass = daekit::MassKind::constant;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.consistent_y0 = true;
    info_.component_names = {"x", "y", "u", "v", "lambda"};
    info_.parameters = {{"g", nominal_gravity, nominal_gravity}};
    info_.differential = {1, 1, 1, 1, 0};
    info_.index = index_ == 3 ? std::vector<std::uint8_t>{1, 1, 2, 2, 3} : std::vector<std::uint8_t>{1, 1, 1, 1, 2};
    info_.reference = reference(tend);
    info_.reference_t = tend;
    info_.reference_source = "the angle ODE theta'' = -(g/L) sin theta by RK4 in long double, 2^16 steps";
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { y << L_, 0.0, 0.0, 0.0, 0.0; }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    const double x = y[0], yy = y[1], u = y[2], v = y[3], lambda = y[4];
    f << u, v, -lambda * x, -lambda * yy - p(0), index_ == 3 ? x * x + yy * yy - L_ * L_ : x * u + yy * v;
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    const double x = y[0], yy = y[1], u = y[2], v = y[3], lambda = y[4];
    j(0, 2) = 1.0;
    j(1, 3) = 1.0;
    j(2, 0) = -lambda, j(2, 4) = -x;
    j(3, 1) = -lambda, j(3, 4) = -yy;
    if (index_ == 3) {
      j(4, 0) = 2 * x, j(4, 1) = 2 * yy;
    } else {
      j(4, 0) = u, j(4, 1) = v, j(4, 2) = x, j(4, 3) = yy;
    }
    return daekit::Eval::ok;
  }

  daekit::Eval dfdp(double, daekit::ConstVector, daekit::MatrixView d) override {
    d(3, 0) = -1.0;
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> reference(double tend) const {
    using real = long double;
    const real k = static_cast<real>(nominal_gravity) / L_;
    auto accel = [k](real theta) { return -k * std::sin(theta); };
    real theta = std::numbers::pi_v<real> / 2, omega = 0;
    const int steps = 1 << 16;
    const real h = static_cast<real>(tend) / steps;
    for (int s = 0; s < steps; ++s) {
      const real k1t = omega, k1w = accel(theta);
      const real k2t = omega + h / 2 * k1w, k2w = accel(theta + h / 2 * k1t);
      const real k3t = omega + h / 2 * k2w, k3w = accel(theta + h / 2 * k2t);
      const real k4t = omega + h * k3w, k4w = accel(theta + h * k3t);
      theta += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
      omega += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
    const real L = L_, c = std::cos(theta), s = std::sin(theta);
    const real lambda = (L * L * omega * omega + static_cast<real>(nominal_gravity) * L * c) / (L * L);
    return {static_cast<double>(L * s), static_cast<double>(-L * c), static_cast<double>(L * c * omega),
            static_cast<double>(L * s * omega), static_cast<double>(lambda)};
  }

  int index_;
  double L_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(PendulumDae, pendulum_dae, "0.1.0",
                      "pendulum in Cartesian coordinates: index-2 or index-3 DAE, reference from the angle ODE")
