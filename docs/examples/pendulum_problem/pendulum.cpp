// A mathematical pendulum of length L as a DAE, the classic index-3 example:
//   x' = u,  y' = v,  u' = -lambda x,  v' = -lambda y - g,  0 = x^2 + y^2 - L^2
// Parameter `index` picks the constraint: 3 (position, as above) or 2 (its time
// derivative, x u + y v = 0, which index-2 solvers such as Rodas or IDA accept).
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>

#ifndef PENDULUM_NAME
#define PENDULUM_NAME pendulum
#endif

namespace {

constexpr double g = 9.81;

class Pendulum : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"L", "1", "length of the pendulum (m)"},
            {"index", "3", "3: position constraint; 2: velocity constraint"}};
  }

  explicit Pendulum(const daekit::Params& p) : L_(p.real("L")), index_(static_cast<int>(p.integer("index"))) {
    if (!(L_ > 0)) throw std::invalid_argument("pendulum: L must be positive");
    if (index_ != 2 && index_ != 3) throw std::invalid_argument("pendulum: index must be 2 or 3");
    info_.name = DAEKIT_STR(PENDULUM_NAME);
    info_.title = "pendulum of length " + p.text("L") + ", index " + p.text("index");
    info_.n = 5;
    info_.t0 = 0.0;
    info_.tend = 3.0;
    info_.mass = daekit::MassKind::constant;  // diag(1, 1, 1, 1, 0)
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.consistent_y0 = true;
    info_.component_names = {"x", "y", "u", "v", "lambda"};
    info_.differential = {1, 1, 1, 1, 0};
    // Positions index 1; velocities index 2 and the multiplier index 3 in the
    // position form, velocities index 1 and the multiplier index 2 in the velocity form.
    info_.index = index_ == 3 ? std::vector<std::uint8_t>{1, 1, 2, 2, 3} : std::vector<std::uint8_t>{1, 1, 1, 1, 2};
  }

  // Horizontal and at rest: consistent with both constraints and with lambda = 0.
  void initial_values(daekit::Vector y, daekit::Vector) override { y << L_, 0.0, 0.0, 0.0, 0.0; }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    const double x = y[0], yy = y[1], u = y[2], v = y[3], lambda = y[4];
    f << u, v, -lambda * x, -lambda * yy - g, index_ == 3 ? x * x + yy * yy - L_ * L_ : x * u + yy * v;
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
#ifdef PENDULUM_WRONG_JACOBIAN
    j(2, 4) = +x;  // the sign error daekit check must catch
#endif
    return daekit::Eval::ok;
  }

  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    for (int i = 0; i < 4; ++i) m(i, i) = 1.0;
    return daekit::Eval::ok;
  }

 private:
  double L_;
  int index_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Pendulum, PENDULUM_NAME, "1.0.0", "Pendulum of length L: index-3 (or index-2) DAE, example")
