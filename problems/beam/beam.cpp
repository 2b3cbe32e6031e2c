// The elastic beam (IVP Test Set `beam`, Hairer & Wanner II, IV.10): an inextensible
// beam clamped at one end, its shape given by the angles theta_1..theta_N (N = 40) of
// N segments, pushed at the free end by a force 1.5 sin^2(t) (switched off at t = pi),
// on [0, 5]. Second-order equations written as 80 first-order ones; the accelerations
// come from a tridiagonal solve with the state-dependent matrix C(theta).
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>
#include <vector>

#include "beam_initial.inc"
#include "beam_reference.inc"

namespace {

constexpr int N = 40;
constexpr double force_off = 3.14159265358979324;  // the source's pi

class Beam : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Beam(const daekit::Params&) {
    info_.name = "beam";
    info_.title = "elastic beam: 40 segments, stiff second-order ODE in first-order form";
    info_.n = 2 * N;
    info_.tend = 5.0;
    info_.tstops = {force_off};
    for (const char* stem : {"theta", "omega"})
      for (std::size_t i = 1; i <= N; ++i) info_.component_names.push_back(daekit::numbered(stem, i));
    daekit::use_testset_reference(info_, beam_reference_text, "beam.ref");
    info_.scored.assign(2 * N, DK_SCORED_NO);
    for (int i = 0; i < N; ++i) info_.scored[i] = DK_SCORED_RELATIVE;  // the angles
    y0_ = daekit::testset_data(beam_initial_text, "beam.y0", 2 * N).values;
    s_.resize(N + 1), c_.resize(N + 1), v_.resize(N + 1), w_.resize(N + 1), alpha_.resize(N + 1), beta_.resize(N + 1);
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 2 * N; ++i) y[i] = y0_[i];
  }

  // 1-based arrays below, as the formulas of the test set's description.
  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    auto th = [&](int i) { return y[i - 1]; };
    auto om = [&](int i) { return y[N + i - 1]; };
    constexpr double n2 = double(N) * N, n4 = n2 * n2;
    for (int i = 2; i <= N; ++i) s_[i] = std::sin(th(i) - th(i - 1)), c_[i] = std::cos(th(i) - th(i - 1));
    // The elastic forces, plus the pushing force while it acts.
    const bool pushed = t <= force_off;
    const double fabs = 1.5 * std::sin(t) * std::sin(t), fx = -fabs, fy = fabs;
    for (int i = 1; i <= N; ++i) {
      const double left = i == 1 ? -th(1) : th(i - 1);  // -3 th1 + th2 at the clamped end
      const double right = i == N ? 0.0 : th(i + 1);
      const double centre = i == N ? -th(N) : -2.0 * th(i);
      v_[i] = (left + centre + right) * n4;
      if (pushed) v_[i] += n2 * (fy * std::cos(th(i)) - fx * std::sin(th(i)));
    }
    // w = D v + omega^2, then solve C w = w (C tridiagonal: 1, 2, ..., 2, 3 on the
    // diagonal, -cos(theta_i - theta_{i-1}) beside it).
    w_[1] = s_[2] * v_[2];
    for (int i = 2; i < N; ++i) w_[i] = -s_[i] * v_[i - 1] + s_[i + 1] * v_[i + 1];
    w_[N] = -s_[N] * v_[N - 1];
    for (int i = 1; i <= N; ++i) w_[i] += om(i) * om(i);
    alpha_[1] = 1.0;
    for (int i = 2; i <= N; ++i) alpha_[i] = 2.0, beta_[i - 1] = -c_[i];
    alpha_[N] = 3.0;
    for (int i = N - 1; i >= 1; --i) {
      const double q = beta_[i] / alpha_[i + 1];
      w_[i] -= w_[i + 1] * q;
      alpha_[i] -= beta_[i] * q;
    }
    w_[1] /= alpha_[1];
    for (int i = 2; i <= N; ++i) w_[i] = (w_[i] - beta_[i - 1] * w_[i - 1]) / alpha_[i];
    // The accelerations u = C v + D w.
    for (int i = 1; i <= N; ++i) {
      double u;
      if (i == 1)
        u = v_[1] - c_[2] * v_[2] + s_[2] * w_[2];
      else if (i == N)
        u = 3.0 * v_[N] - c_[N] * v_[N - 1] - s_[N] * w_[N - 1];
      else
        u = 2.0 * v_[i] - c_[i] * v_[i - 1] - c_[i + 1] * v_[i + 1] - s_[i] * w_[i - 1] + s_[i + 1] * w_[i + 1];
      f[i - 1] = om(i);
      f[N + i - 1] = u;
    }
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_, s_, c_, v_, w_, alpha_, beta_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Beam, beam, "0.1.0", "elastic beam, 40 segments: stiff ODE, n=80 (IVP Test Set)")
