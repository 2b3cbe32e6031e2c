// The elastic beam (IVP Test Set `beam`, Hairer & Wanner II, IV.10): an inextensible
// beam clamped at one end, its shape given by the angles theta_1..theta_N (N = 40) of
// N segments, pushed at the free end by a force 1.5 sin^2(t) (switched off at t = pi),
// on [0, 5]. Second-order equations written as 80 first-order ones; the accelerations
// come from a tridiagonal solve with the state-dependent matrix C(theta). f is written
// once over the scalar type: doubles give f, the SDK's duals df/dy exactly
// (sdk/autodiff.hpp; 80 columns in 10 passes).
#include <array>
#include <cmath>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>
#include <vector>

#include "beam_initial.inc"
#include "beam_reference.inc"

namespace {

constexpr int N = 40;
constexpr double force_off = 3.14159265358979324;  // the source's pi

class Beam : public daekit::AutoDiffProblem<Beam> {
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
    differentiate_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 2 * N; ++i) y[i] = y0_[i];
  }

  // 1-based arrays below, as the formulas of the test set's description.
  // The work arrays live on the stack, one set per scalar type: no allocation per call.
  template <class T>
  daekit::Eval rhs_of(double t, const T* y, T* f) {
    using std::cos, std::sin;
    std::array<T, N + 1> s{}, c{}, v{}, w{}, alpha{}, beta{};
    auto th = [&](int i) -> const T& { return y[i - 1]; };
    auto om = [&](int i) -> const T& { return y[N + i - 1]; };
    constexpr double n2 = double(N) * N, n4 = n2 * n2;
    for (int i = 2; i <= N; ++i) s[i] = sin(th(i) - th(i - 1)), c[i] = cos(th(i) - th(i - 1));
    // The elastic forces, plus the pushing force while it acts.
    const bool pushed = t <= force_off;
    const double fabs = 1.5 * std::sin(t) * std::sin(t), fx = -fabs, fy = fabs;
    for (int i = 1; i <= N; ++i) {
      const T left = i == 1 ? T(-th(1)) : th(i - 1);  // -3 th1 + th2 at the clamped end
      const T right = i == N ? T(0.0) : th(i + 1);
      const T centre = i == N ? T(-th(N)) : T(-2.0 * th(i));
      v[i] = (left + centre + right) * n4;
      if (pushed) v[i] += n2 * (fy * cos(th(i)) - fx * sin(th(i)));
    }
    // w = D v + omega^2, then solve C w = w (C tridiagonal: 1, 2, ..., 2, 3 on the
    // diagonal, -cos(theta_i - theta_{i-1}) beside it).
    w[1] = s[2] * v[2];
    for (int i = 2; i < N; ++i) w[i] = -s[i] * v[i - 1] + s[i + 1] * v[i + 1];
    w[N] = -s[N] * v[N - 1];
    for (int i = 1; i <= N; ++i) w[i] += om(i) * om(i);
    alpha[1] = 1.0;
    for (int i = 2; i <= N; ++i) alpha[i] = 2.0, beta[i - 1] = -c[i];
    alpha[N] = 3.0;
    for (int i = N - 1; i >= 1; --i) {
      const T q = beta[i] / alpha[i + 1];
      w[i] -= w[i + 1] * q;
      alpha[i] -= beta[i] * q;
    }
    w[1] /= alpha[1];
    for (int i = 2; i <= N; ++i) w[i] = (w[i] - beta[i - 1] * w[i - 1]) / alpha[i];
    // The accelerations u = C v + D w.
    for (int i = 1; i <= N; ++i) {
      T u;
      if (i == 1)
        u = v[1] - c[2] * v[2] + s[2] * w[2];
      else if (i == N)
        u = 3.0 * v[N] - c[N] * v[N - 1] - s[N] * w[N - 1];
      else
        u = 2.0 * v[i] - c[i] * v[i - 1] - c[i + 1] * v[i + 1] - s[i] * w[i - 1] + s[i + 1] * w[i + 1];
      f[i - 1] = om(i);
      f[N + i - 1] = u;
    }
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Beam, beam, "0.1.0", "elastic beam, 40 segments: stiff ODE, n=80 (IVP Test Set)")
