// bdf's automatic first step: on an ODE the step whose backward-Euler error is a quarter of
// the tolerance (CVODE's estimate), never below DASSL's rule; on a DAE DASSL's rule alone.
// Checked against the closed form of y' = -k y, where the estimate's difference of y' is
// exact, and through the whole solve (the first accepted step is the chosen one).
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/kits/bdf/stepper.hpp>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/initial_step.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <limits>
#include <optional>
#include <vector>

#include "smooth_problems.hpp"

using namespace daekit;

namespace {

// y1' = -k y1, y2' = -2k y2 (k = 3): y'' = k^2 y1, 4 k^2 y2 exactly, and f is linear, so
// the difference of y' along y' is y'' to rounding.
class Decay : public Problem {
 public:
  static constexpr double k = 3.0;
  static std::vector<ParamDesc> parameters() { return {}; }
  explicit Decay(const Params&) {
    info_.name = "decay";
    info_.n = 2;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
  }
  static Eigen::VectorXd exact(double t) { return Eigen::Vector2d(std::exp(-k * t), 2.0 * std::exp(-2.0 * k * t)); }
  void initial_values(Vector y, Vector) override { y = exact(0.0); }
  Eval rhs(double, ConstVector y, Vector f) override {
    f[0] = -k * y[0];
    f[1] = -2.0 * k * y[1];
    return Eval::ok;
  }
  Eval jacobian(double, ConstVector, MatrixView j) override {
    j(0, 0) = -k;
    j(1, 1) = -2.0 * k;
    return Eval::ok;
  }
};

// The first accepted step's end: the first point an every-step output emits after t0.
struct FirstStep {
  double t = std::numeric_limits<double>::quiet_NaN();
  static int32_t emit(void* env, double t, const double*, size_t) {
    auto* self = static_cast<FirstStep*>(env);
    if (t > 0.0 && std::isnan(self->t)) self->t = t;
    return 0;
  }
};

template <class P>
struct Rig {
  dk_problem handle{};
  Stats stats{};
  std::optional<ProblemView> view;
  SolveRequest req;
  explicit Rig(double rtol, double atol, double tend) {
    char err[256];
    REQUIRE(sdk::make_problem<P>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
    view.emplace(handle, stats);
    req.t0 = 0.0;
    req.tend = tend;
    req.y0 = P::exact(0.0);
    req.rtol = PerComponent(view->size(), rtol);
    req.atol = PerComponent(view->size(), atol);
    req.hmax = std::numeric_limits<double>::infinity();
    req.output = OutputMode::every_step;
  }
  ~Rig() {
    view.reset();
    handle.vtbl->destroy(handle.self);
  }
  double first_accepted_step() {
    FirstStep first;
    dk_output_sink sink_c{&first, &FirstStep::emit};
    OutputSink sink(&sink_c);
    const SolveOutcome out = solve_bdf(*view, req, sink, BdfSettings{});
    INFO(out.message);
    REQUIRE(out.status == Status::success);
    return first.t;
  }
};

}  // namespace

TEST_CASE("the order-1 first step of an ODE is the step whose backward-Euler error is a quarter of the tolerance",
          "[unit][plugin:bdf]") {
  const double rtol = 1e-4, atol = 1e-8;
  Rig<Decay> rig(rtol, atol, 10.0);
  const ErrorNorm norm = ErrorNorm::for_request(rig.req, *rig.view);
  MassMatrix mass;
  REQUIRE(mass.setup(*rig.view, 0.0, rig.req.y0) == Eval::ok);
  Eigen::VectorXd f(2);
  REQUIRE(rig.view->rhs(0.0, rig.req.y0, f) == Eval::ok);
  double h = -1.0;
  REQUIRE(first_step_order_one(*rig.view, norm, mass, 0.0, 10.0, rig.req.y0, f, 0.0, &h) == Eval::ok);
  // |y''| w per component: k^2 y1 / (rtol y1 + atol) and 4 k^2 y2 / (rtol y2 + atol); h^2/2
  // times their root mean square is 1/4 (h = 1/2 sqrt(2 / rms)).
  const double k = Decay::k;
  const double a = k * k * 1.0 / (rtol * 1.0 + atol), b = 4.0 * k * k * 2.0 / (rtol * 2.0 + atol);
  const double expected = 0.5 * std::sqrt(2.0 / std::sqrt((a * a + b * b) / 2.0));
  CHECK(h == Approx(expected).epsilon(1e-6));
  // hmax bounds it, and so does a tenth of the span.
  double bounded = -1.0;
  REQUIRE(first_step_order_one(*rig.view, norm, mass, 0.0, 10.0, rig.req.y0, f, 1e-3, &bounded) == Eval::ok);
  CHECK(bounded == Approx(1e-3));
  REQUIRE(first_step_order_one(*rig.view, norm, mass, 0.0, 0.01, rig.req.y0, f, 0.0, &bounded) == Eval::ok);
  CHECK(bounded == Approx(1e-3));
  // No component moves by more than a tenth of its size plus its tolerance: at rtol 0.1 the
  // estimate is 0.044, y2's bound (0.1 |y2| + 0.1 |y2| + atol) / |y2'| = 0.033.
  Rig<Decay> loose(0.1, 1e-8, 10.0);
  const ErrorNorm loose_norm = ErrorNorm::for_request(loose.req, *loose.view);
  double capped = -1.0;
  REQUIRE(first_step_order_one(*loose.view, loose_norm, mass, 0.0, 10.0, loose.req.y0, f, 0.0, &capped) == Eval::ok);
  CHECK(capped == Approx((0.1 * 2.0 + 0.1 * 2.0 + 1e-8) / (2.0 * k * 2.0)).epsilon(1e-9));

  // The solve takes it as its first step: the larger of it and DASSL's rule (|h y'| <= 1/2
  // in the error norm, at most a thousandth of the span), which gives 1.05e-5 here.
  const double dassl = std::min(1e-3 * 10.0, 0.5 / std::sqrt((std::pow(k / (rtol + atol), 2) +
                                                                 std::pow(4.0 * k / (2.0 * rtol + atol), 2)) / 2.0));
  CHECK(rig.first_accepted_step() == Approx(std::max(expected, dassl)).epsilon(1e-12));
}

TEST_CASE("bdf's first step on a DAE stays DASSL's rule", "[plugin:bdf]") {
  Rig<test::SmoothDae> rig(1e-6, 1e-6, 2.0);
  // The estimate declines a problem with algebraic components.
  const ErrorNorm norm = ErrorNorm::for_request(rig.req, *rig.view);
  MassMatrix mass;
  REQUIRE(mass.setup(*rig.view, 0.0, rig.req.y0) == Eval::ok);
  Eigen::VectorXd f(2), yp0(2);
  REQUIRE(rig.view->rhs(0.0, rig.req.y0, f) == Eval::ok);
  yp0 << f[0], 0.0;
  double h = -1.0;
  REQUIRE(first_step_order_one(*rig.view, norm, mass, 0.0, 2.0, rig.req.y0, yp0, 0.0, &h) == Eval::ok);
  CHECK(h == 0.0);
  // |h y'| <= 1/2 in the error norm (y1' = -1/4 at t0, the algebraic component out of the
  // norm's y' as M y' = f leaves it 0), at most a thousandth of the span.
  const double yp_rms = std::sqrt((std::pow(0.25 / (1e-6 * 0.5 + 1e-6), 2) + 0.0) / 2.0);
  CHECK(rig.first_accepted_step() == Approx(std::min(1e-3 * 2.0, 0.5 / yp_rms)).epsilon(1e-12));
}
