// A stiff reaction chain A -> B -> C whose feed of A is switched on at t_on:
//   a' = F(t) - k1 a,   b' = k1 a - k2 b,   c' = k2 b,   F = 0 before t_on, `feed` after,
// with k2 >> k1 (B is short-lived: the stiffness). The switch is a time event: solvers
// must land on t_on and restart there. Linear in each phase, so exact at any t: with
// a = C + D e^(-k1 s) from the phase's start (s = t - t_s),
//   b = k1 C/k2 + k1 D/(k2 - k1) e^(-k1 s) + (b_s - k1 C/k2 - k1 D/(k2 - k1)) e^(-k2 s),
// and c from the conservation a + b + c = total + feed (t - t_on)+. The twin of the test
// FMU feed_reactor (tests/fmu), whose results must agree with these, outputs (the
// derivatives and the feed's switch) included.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <limits>
#include <stdexcept>

namespace {

class FeedReactor : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"k1", "1", "rate of A -> B"},
            {"k2", "1e4", "rate of B -> C (>> k1: the stiffness)"},
            {"feed", "2", "feed of A after t_on"},
            {"t_on", "10", "the time the feed is switched on (a time event)"},
            {"tend", "20", "end of the span"}};
  }

  explicit FeedReactor(const daekit::Params& p)
      : k1_(p.real("k1")), k2_(p.real("k2")), feed_(p.real("feed")), t_on_(p.real("t_on")) {
    const double tend = p.real("tend");
    if (!(k1_ > 0) || !(k2_ > 0) || k1_ == k2_ || !std::isfinite(feed_) || !(t_on_ > 0) || !(tend > 0))
      throw std::invalid_argument("feed_reactor needs k1, k2 > 0 (k1 != k2), a finite feed, t_on > 0, tend > 0");
    auto& in = info_;
    in.name = "feed_reactor";
    in.title = "stiff reaction chain A -> B -> C, feed of A switched on at t_on (time event), exact solution";
    in.n = 3;
    in.tend = tend;
    in.analytic_jacobian = true;
    in.component_names = {"a", "b", "c"};
    in.time_events = true;
    in.reference_at_any_time = true;
    in.reference = state_at(tend);
    in.reference_t = tend;
    in.reference_source = "closed form (linear in each phase)";
    in.rtol_hint = 1e-6;
    // The FMU twin's other variables, by the same names (--output-vars).
    in.outputs = {"der(a)", "der(b)", "der(c)", "feed_on"};
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    feed_on_ = false;
    y << 1.0, 0.0, 0.0;
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << (feed_on_ ? feed_ : 0.0) - k1_ * y[0], k1_ * y[0] - k2_ * y[1], k2_ * y[1];
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    j(0, 0) = -k1_;
    j(1, 0) = k1_;
    j(1, 1) = -k2_;
    j(2, 1) = k2_;
    return daekit::Eval::ok;
  }
  daekit::Eval outputs(double t, daekit::ConstVector y, std::span<const std::uint32_t> which,
                       daekit::Vector values) override {
    double f[3];
    rhs(t, y, daekit::Vector(f, 3));
    for (std::size_t k = 0; k < which.size(); ++k)
      values[static_cast<Eigen::Index>(k)] = which[k] < 3 ? f[which[k]] : (feed_on_ ? 1.0 : 0.0);
    return daekit::Eval::ok;
  }
  double next_time_event(double t) override {
    return t < t_on_ ? t_on_ : std::numeric_limits<double>::infinity();
  }
  daekit::EventAction on_event(const daekit::Event& event, daekit::Vector) override {
    if (event.t >= t_on_) feed_on_ = true;
    return daekit::EventAction::proceed;
  }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    const auto v = state_at(t);
    y << v[0], v[1], v[2];
    return daekit::Eval::ok;
  }

 private:
  // a and b through one phase from (a_s, b_s), feed f, for s >= 0.
  void phase(double a_s, double b_s, double f, double s, double* a, double* b) const {
    const double c = f / k1_, d = a_s - c;
    const double slow = k1_ * d / (k2_ - k1_);
    *a = c + d * std::exp(-k1_ * s);
    *b = k1_ * c / k2_ + slow * std::exp(-k1_ * s) + (b_s - k1_ * c / k2_ - slow) * std::exp(-k2_ * s);
  }
  std::vector<double> state_at(double t) const {
    double a = 0.0, b = 0.0;
    phase(1.0, 0.0, 0.0, std::min(t, t_on_), &a, &b);
    if (t > t_on_) phase(a, b, feed_, t - t_on_, &a, &b);
    const double total = 1.0 + (t > t_on_ ? feed_ * (t - t_on_) : 0.0);
    return {a, b, total - a - b};
  }

  double k1_, k2_, feed_, t_on_;
  bool feed_on_ = false;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(FeedReactor, feed_reactor, "0.1.0",
                      "stiff reaction chain with a feed switched on at t_on: a time event, exact solution")
