// A ball dropped from rest at height H bounces on the floor x = 0 with restitution e:
//   x' = v,  v' = -g;  event when x falls through 0, where v -> -e v.
// Every event time is known in closed form: with T = sqrt(2 H / g) (the first fall),
//   t_1 = T,   t_{k+1} = t_k + 2 e^k T,
// so the run checks the whole event machinery (location, reset, restart) against exact
// numbers. The span ends halfway through the flight after bounce `bounces`, so exactly
// that many events happen; the reference there is the free flight after the last bounce.
// The bounces accumulate at T (1 + 2e/(1-e)) (Zeno): `--param bounces=` large runs into
// chattering, which --max-events stops.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>

namespace {

class BouncingBall : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"height", "10", "initial height H (m), dropped from rest"},
            {"restitution", "0.8", "coefficient of restitution e, 0 < e < 1"},
            {"gravity", "9.81", "g (m/s^2)"},
            {"bounces", "20", "events before tend: the span ends halfway through the following flight"}};
  }

  explicit BouncingBall(const daekit::Params& p)
      : height_(p.real("height")), e_(p.real("restitution")), g_(p.real("gravity")), bounces_(p.integer("bounces")) {
    const long bounces = bounces_;
    if (!(height_ > 0) || !(e_ > 0 && e_ < 1) || !(g_ > 0) || bounces < 1 || bounces > 400)
      throw std::invalid_argument("bouncing_ball needs height > 0, 0 < restitution < 1, gravity > 0, 1 <= bounces <= 400");
    auto& in = info_;
    in.name = "bouncing_ball";
    in.title = "ball bouncing on the floor with restitution: event times in closed form";
    in.n = 2;
    in.t0 = 0.0;
    in.analytic_jacobian = true;
    in.analytic_dfdt = true;
    in.autonomous = true;
    in.component_names = {"x", "v"};
    in.roots = {{"floor", DK_ROOT_FALLING, false}};
    // tend: halfway up the flight after the last bounce; the state there in closed form.
    const double fall = std::sqrt(2.0 * height_ / g_);
    const double dt = 0.5 * std::pow(e_, static_cast<double>(bounces)) * fall;  // half the rise time
    in.tend = event_time(bounces) + dt;
    in.reference = state_at(in.tend);
    in.reference_t = in.tend;
    in.reference_at_any_time = true;
    in.reference_source = "closed form: t_1 = T, t_(k+1) = t_k + 2 e^k T with T = sqrt(2H/g), free flight after";
    in.rtol_hint = 1e-8;
  }

  // The k-th event time (k >= 1) in closed form.
  double event_time(long k) const {
    const double fall = std::sqrt(2.0 * height_ / g_);
    double t = fall;
    for (long j = 1; j < k; ++j) t += 2.0 * std::pow(e_, static_cast<double>(j)) * fall;
    return t;
  }

  // The state at t in closed form: the free flight since the last bounce before t, the
  // bounces counted in one pass (near the accumulation point the flights vanish in
  // rounding, so the count stops at the declared bounces).
  std::vector<double> state_at(double t) const {
    const double fall = std::sqrt(2.0 * height_ / g_);
    if (t < fall) return {height_ - 0.5 * g_ * t * t, -g_ * t};
    double t_bounce = fall, e_k = e_;  // the k-th bounce's time and e^k
    for (long k = 1; k < bounces_; ++k) {
      const double flight = 2.0 * e_k * fall;
      if (t_bounce + flight > t) break;
      t_bounce += flight;
      e_k *= e_;
    }
    const double s = t - t_bounce, v_up = e_k * g_ * fall;
    return {v_up * s - 0.5 * g_ * s * s, v_up - g_ * s};
  }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    const auto v = state_at(t);
    y << v[0], v[1];
    return daekit::Eval::ok;
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    y << height_, 0.0;
    yp << 0.0, -g_;
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << y[1], -g_;
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    j(0, 1) = 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval dfdt(double, daekit::ConstVector, daekit::Vector df) override {
    df.setZero();
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g[0] = y[0];
    return daekit::Eval::ok;
  }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector y) override {
    y[0] = 0.0;  // on the floor, whatever side of it the located time left it
    y[1] = -e_ * y[1];
    return daekit::EventAction::proceed;
  }
  // The reset's derivative, for sensitivities through the bounces (with respect to the
  // initial state: restitution and gravity are creation parameters here).
  daekit::Eval event_derivatives(const daekit::Event&, daekit::ConstVector, daekit::MatrixView dRdy,
                                 daekit::MatrixView) override {
    dRdy(1, 1) = -e_;
    return daekit::Eval::ok;
  }

 private:
  double height_, e_, g_;
  long bounces_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(BouncingBall, bouncing_ball, "0.1.0",
                      "ball bouncing with restitution: root function, state reset, event times in closed form")
