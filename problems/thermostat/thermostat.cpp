// A heater under a thermostat with hysteresis, and a fast sensor: a stiff problem with a
// state-dependent switch.
//   y' = -k y + U u        (temperature; u = 1 heater on, 0 off)
//   z' = -L (z - y)        (sensor, L >> k: the stiffness)
// The heater switches on when y falls through `low` and off when it rises through
// `high` (two root functions with directions; the mode u is the problem's own state,
// so every event restarts the solver). Everything is in closed form: the off phase
// lasts ln(high/low)/k, the on phase ln((A - low)/(A - high))/k with A = U/k, and in each
// phase y = A u + (y_s - A u) e^(-k s), z = A u + (y_s - A u) L/(L - k) e^(-k s) plus the
// sensor's transient c e^(-L s) after each switch: exact at any t.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>

namespace {

class Thermostat : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"k", "1", "heat loss rate"},
            {"heat", "3", "heating power U (U/k must exceed high)"},
            {"sensor_rate", "1e4", "L: the sensor's rate, the stiffness"},
            {"low", "1", "switch on below this"},
            {"high", "2", "switch off above this (the start: y(0) = high, heater off)"},
            {"tend", "10.2", "end of the span (not within 1e-2 of a switch)"}};
  }

  explicit Thermostat(const daekit::Params& p)
      : k_(p.real("k")), heat_(p.real("heat")), rate_(p.real("sensor_rate")), low_(p.real("low")), high_(p.real("high")) {
    const double tend = p.real("tend");
    if (!(k_ > 0) || !(low_ > 0) || !(high_ > low_) || !(heat_ / k_ > high_) || !(rate_ > 10 * k_) || !(tend > 0))
      throw std::invalid_argument("thermostat needs k > 0, 0 < low < high < heat/k, sensor_rate > 10 k, tend > 0");
    auto& in = info_;
    in.name = "thermostat";
    in.title = "heater switched by a thermostat with hysteresis, fast sensor: stiff, events in closed form";
    in.n = 2;
    in.t0 = 0.0;
    in.tend = tend;
    in.analytic_jacobian = true;
    in.autonomous = true;
    in.component_names = {"temperature", "sensor"};
    in.roots = {{"switch on (falls through low)", DK_ROOT_FALLING, false},
                {"switch off (rises through high)", DK_ROOT_RISING, false}};
    in.reference = reference_at(tend);
    in.reference_t = tend;
    in.reference_source = "closed form: exponential phases of ln(high/low)/k off and ln((A-low)/(A-high))/k on";
    in.reference_at_any_time = true;
    in.rtol_hint = 1e-6;
  }

  // The state at t in closed form, phase by phase: y = A u + (y_s - A u) e^(-k s) and
  // z = A u + (y_s - A u) L/(L - k) e^(-k s) + c e^(-L s), where c carries z's mismatch
  // at the phase's start (the sensor's transient after a switch).
  std::vector<double> reference_at(double t) const {
    const double amplitude = heat_ / k_;
    const double off = std::log(high_ / low_) / k_, on = std::log((amplitude - low_) / (amplitude - high_)) / k_;
    const double lag = rate_ / (rate_ - k_);
    double start = 0.0, y_start = high_, z_start = high_ * lag;
    int mode = 0;
    auto at = [&](double s) {
      const double target = amplitude * mode, e = std::exp(-k_ * s);
      const double transient = z_start - target - (y_start - target) * lag;
      return std::vector<double>{target + (y_start - target) * e,
                                 target + (y_start - target) * lag * e + transient * std::exp(-rate_ * s)};
    };
    for (;;) {
      const double length = mode ? on : off;
      if (start + length > t) break;
      z_start = at(length)[1];
      start += length;
      y_start = mode ? high_ : low_;
      mode = 1 - mode;
    }
    return at(t - start);
  }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    const auto v = reference_at(t);
    y << v[0], v[1];
    return daekit::Eval::ok;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    heater_on_ = false;  // every solve starts in the initial mode
    y << high_, high_ * rate_ / (rate_ - k_);
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << -k_ * y[0] + (heater_on_ ? heat_ : 0.0), -rate_ * (y[1] - y[0]);
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    j(0, 0) = -k_;
    j(1, 0) = rate_;
    j(1, 1) = -rate_;
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g << y[0] - low_, y[0] - high_;
    return daekit::Eval::ok;
  }
  daekit::EventAction on_event(const daekit::Event& e, daekit::Vector) override {
    if (e.fired_root(0)) heater_on_ = true;
    if (e.fired_root(1)) heater_on_ = false;
    return daekit::EventAction::proceed;
  }

 private:
  double k_, heat_, rate_, low_, high_;
  bool heater_on_ = false;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Thermostat, thermostat, "0.1.0",
                      "stiff heater with a hysteresis thermostat: two root functions, mode switches in closed form")
