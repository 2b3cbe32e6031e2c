// An index-1 DAE whose algebraic equation changes at an event:
//   x' = z,   0 = z + a x,   a = 2 in mode 1, a = 1/2 in mode 2,
// switched when x falls through 1/2. At the switch z jumps from -1 to -1/4, so the
// solver must re-solve the algebraic component (on_event returns DK_EVENT_REINIT); with
// `--param reinit=0` the problem says "continue" instead and a correct solver refuses to
// go on from the inconsistent state. Closed form: x = e^(-2t) up to t1 = ln(2)/2, then
// x = e^(-(t - t1)/2) / 2; z = -a x.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>

namespace {

class ModeSwitchDae : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"reinit", "true", "the event asks for re-initialisation (false: the DAE is left inconsistent)"}};
  }

  explicit ModeSwitchDae(const daekit::Params& p) : reinit_(p.flag("reinit")) {
    auto& in = info_;
    in.name = "mode_switch_dae";
    in.title = "index-1 DAE whose algebraic equation changes at an event (re-initialisation)";
    in.n = 2;
    in.t0 = 0.0;
    in.tend = 2.0;
    in.mass = daekit::MassKind::constant;
    in.differential = {1, 0};
    in.analytic_jacobian = true;
    in.autonomous = true;
    in.consistent_y0 = true;
    in.component_names = {"x", "z"};
    in.roots = {{"x falls through 1/2", DK_ROOT_FALLING, false}};
    in.reference = exact(in.tend);
    in.reference_t = in.tend;
    in.reference_at_any_time = true;
    in.reference_source = "closed form: x = e^(-2t) to t1 = ln(2)/2, then e^(-(t-t1)/2)/2; z = -a x";
    in.rtol_hint = 1e-6;
  }

  // x = e^(-2t), z = -2x before t1 = ln(2)/2; x = e^(-(t-t1)/2)/2, z = -x/2 after.
  static std::vector<double> exact(double t) {
    const double t1 = 0.5 * std::log(2.0);
    if (t < t1) return {std::exp(-2.0 * t), -2.0 * std::exp(-2.0 * t)};
    const double x = 0.5 * std::exp(-0.5 * (t - t1));
    return {x, -0.5 * x};
  }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    const auto v = exact(t);
    y << v[0], v[1];
    return daekit::Eval::ok;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    a_ = 2.0;  // every solve starts in mode 1
    y << 1.0, -2.0;
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << y[1], y[1] + a_ * y[0];
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    j(0, 1) = 1.0;
    j(1, 0) = a_;
    j(1, 1) = 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    m(0, 0) = 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g[0] = y[0] - 0.5;
    return daekit::Eval::ok;
  }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector) override {
    a_ = 0.5;
    return reinit_ ? daekit::EventAction::reinit : daekit::EventAction::proceed;
  }

 private:
  bool reinit_;
  double a_ = 2.0;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(ModeSwitchDae, mode_switch_dae, "0.1.0",
                      "index-1 DAE whose algebraic equation changes at an event: re-initialisation, closed form")
