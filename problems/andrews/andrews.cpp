// Andrews' squeezing mechanism (IVP Test Set `andrews`): seven rigid bodies in a
// plane, driven by a motor torque and a spring, with six holonomic constraints:
//   q' = v,  v' = w,  0 = M(q) w - f(q, v) + G(q)^T lambda,  0 = g(q)
// (position constraints: index 3). y = (q 7 | v 7 | w 7 | lambda 6), 27 unknowns,
// M = diag(I14, 0): q index 1, v index 2, w and lambda index 3. Span [0, 0.03].
#include <Eigen/Dense>
#include <cmath>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "andrews_initial.inc"
#include "andrews_reference.inc"

namespace {

// Data of the mechanism (Hairer & Wanner, Solving ODEs II, sec. VII.7; the test set's andrews.f).
constexpr double m1 = .04325, m2 = .00365, m3 = .02373, m4 = .00706, m5 = .07050, m6 = .00706, m7 = .05498;
constexpr double xa = -.06934, ya = -.00227, xb = -0.03635, yb = .03273, xc = .014, yc = .072, c0 = 4530.0;
constexpr double i1 = 2.194e-6, i2 = 4.410e-7, i3 = 5.255e-6, i4 = 5.667e-7, i5 = 1.169e-5, i6 = 5.667e-7,
                 i7 = 1.912e-5;
constexpr double d = 28e-3, da = 115e-4, e = 2e-2, ea = 1421e-5, rr = 7e-3, ra = 92e-5, l0 = 7785e-5;
constexpr double ss = 35e-3, sa = 1874e-5, sb = 1043e-5, sc = 18e-3, sd = 2e-2;
constexpr double ta = 2308e-5, tb = 916e-5, u = 4e-2, ua = 1228e-5, ub = 449e-5;
constexpr double zf = 2e-2, zt = 4e-2, fa = 1421e-5, mom = 33e-3;

template <class T> using Mat7 = Eigen::Matrix<T, 7, 7>;
template <class T> using Mat67 = Eigen::Matrix<T, 6, 7>;
template <class T> using Vec7 = Eigen::Matrix<T, 7, 1>;
template <class T> using Vec6 = Eigen::Matrix<T, 6, 1>;

// f written once over the scalar type: doubles give f, the SDK's duals df/dy exactly
// (sdk/autodiff.hpp; 27 columns in 4 passes).
class Andrews : public daekit::AutoDiffProblem<Andrews> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Andrews(const daekit::Params&) {
    info_.name = "andrews";
    info_.title = "Andrews' squeezing mechanism: 7-body planar mechanism, index-3 DAE";
    info_.n = 27;
    info_.tend = 0.03;
    info_.mass = daekit::MassKind::constant;
    info_.autonomous = true;
    info_.consistent_y0 = true;
    differentiate_automatically();
    info_.has_yp0 = true;
    info_.differential.assign(27, 0);
    info_.index.assign(27, 3);
    for (int i = 0; i < 14; ++i) info_.differential[i] = 1, info_.index[i] = i < 7 ? 1 : 2;
    const char* angles[7] = {"beta", "theta", "gamma", "phi", "delta", "omega", "epsilon"};
    for (const char* stem : {"", "v_", "a_"})
      for (const char* a : angles) info_.component_names.push_back(std::string(stem) + a);
    for (std::size_t i = 1; i <= 6; ++i) info_.component_names.push_back(daekit::numbered("lambda", i));
    daekit::use_testset_reference(info_, andrews_reference_text, "andrews.ref");
    info_.scored.assign(27, 0);
    for (int i = 0; i < 7; ++i) info_.scored[i] = 1;  // the test set scores the angles only
    y0_ = daekit::testset_data(andrews_initial_text, "andrews.y0", 27).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 27; ++i) y[i] = y0_[i];
    yp.setZero();
    yp.head<14>() = y.segment<14>(7);
  }

  template <class T>
  daekit::Eval rhs_of(double, const T* yp, T* fp) {
    using std::cos, std::sin, std::sqrt;
    const Eigen::Map<const Eigen::Matrix<T, 27, 1>> y(yp);
    Eigen::Map<Eigen::Matrix<T, 27, 1>> f(fp);
    const Vec7<T> q = y.template segment<7>(0), v = y.template segment<7>(7), w = y.template segment<7>(14);
    const Vec6<T> lambda = y.template segment<6>(21);
    const T sibe = sin(q[0]), sith = sin(q[1]), siga = sin(q[2]), siph = sin(q[3]);
    const T side = sin(q[4]), siom = sin(q[5]), siep = sin(q[6]);
    const T cobe = cos(q[0]), coth = cos(q[1]), coga = cos(q[2]), coph = cos(q[3]);
    const T code = cos(q[4]), coom = cos(q[5]), coep = cos(q[6]);
    const T sibeth = sin(q[0] + q[1]), siphde = sin(q[3] + q[4]), siomep = sin(q[5] + q[6]);
    const T cobeth = cos(q[0] + q[1]), cophde = cos(q[3] + q[4]), coomep = cos(q[5] + q[6]);
    const T bep = v[0], thp = v[1], php = v[3], dep = v[4], omp = v[5], epp = v[6];

    Mat7<T> m = Mat7<T>::Zero();
    m(0, 0) = m1 * ra * ra + m2 * (rr * rr - 2 * da * rr * coth + da * da) + i1 + i2;
    m(1, 0) = m2 * (da * da - da * rr * coth) + i2;
    m(1, 1) = m2 * da * da + i2;
    m(2, 2) = m3 * (sa * sa + sb * sb) + i3;
    m(3, 3) = m4 * (e - ea) * (e - ea) + i4;
    m(4, 3) = m4 * ((e - ea) * (e - ea) + zt * (e - ea) * siph) + i4;
    m(4, 4) = m4 * (zt * zt + 2 * zt * (e - ea) * siph + (e - ea) * (e - ea)) + m5 * (ta * ta + tb * tb) + i4 + i5;
    m(5, 5) = m6 * (zf - fa) * (zf - fa) + i6;
    m(6, 5) = m6 * ((zf - fa) * (zf - fa) - u * (zf - fa) * siom) + i6;
    m(6, 6) = m6 * ((zf - fa) * (zf - fa) - 2 * u * (zf - fa) * siom + u * u) + m7 * (ua * ua + ub * ub) + i6 + i7;
    for (int j = 1; j < 7; ++j)
      for (int i = 0; i < j; ++i) m(i, j) = m(j, i);

    // The spring between the points D (on body 3) and C.
    const T xd = sd * coga + sc * siga + xb, yd = sd * siga - sc * coga + yb;
    const T length = sqrt((xd - xc) * (xd - xc) + (yd - yc) * (yd - yc));
    const T force = -c0 * (length - l0) / length;
    const T fx = force * (xd - xc), fy = force * (yd - yc);
    Vec7<T> ff;
    ff[0] = mom - m2 * da * rr * thp * (thp + 2 * bep) * sith;
    ff[1] = m2 * da * rr * bep * bep * sith;
    ff[2] = fx * (sc * coga - sd * siga) + fy * (sd * coga + sc * siga);
    ff[3] = m4 * zt * (e - ea) * dep * dep * coph;
    ff[4] = -m4 * zt * (e - ea) * php * (php + 2 * dep) * coph;
    ff[5] = -m6 * u * (zf - fa) * epp * epp * coom;
    ff[6] = m6 * u * (zf - fa) * omp * (omp + 2 * epp) * coom;

    Mat67<T> gp = Mat67<T>::Zero();
    gp(0, 0) = -rr * sibe + d * sibeth, gp(0, 1) = d * sibeth, gp(0, 2) = -ss * coga;
    gp(1, 0) = rr * cobe - d * cobeth, gp(1, 1) = -d * cobeth, gp(1, 2) = -ss * siga;
    gp(2, 0) = -rr * sibe + d * sibeth, gp(2, 1) = d * sibeth, gp(2, 3) = -e * cophde;
    gp(2, 4) = -e * cophde + zt * side;
    gp(3, 0) = rr * cobe - d * cobeth, gp(3, 1) = -d * cobeth, gp(3, 3) = -e * siphde;
    gp(3, 4) = -e * siphde - zt * code;
    gp(4, 0) = -rr * sibe + d * sibeth, gp(4, 1) = d * sibeth, gp(4, 5) = zf * siomep;
    gp(4, 6) = zf * siomep - u * coep;
    gp(5, 0) = rr * cobe - d * cobeth, gp(5, 1) = -d * cobeth, gp(5, 5) = -zf * coomep;
    gp(5, 6) = -zf * coomep - u * siep;

    Vec6<T> g;
    g[0] = rr * cobe - d * cobeth - ss * siga - xb;
    g[1] = rr * sibe - d * sibeth + ss * coga - yb;
    g[2] = rr * cobe - d * cobeth - e * siphde - zt * code - xa;
    g[3] = rr * sibe - d * sibeth + e * cophde - zt * side - ya;
    g[4] = rr * cobe - d * cobeth - zf * coomep - u * siep - xa;
    g[5] = rr * sibe - d * sibeth - zf * siomep + u * coep - ya;

    f.template segment<14>(0) = y.template segment<14>(7);
    f.template segment<7>(14) = ff - m * w - gp.transpose() * lambda;
    f.template segment<6>(21) = -g;
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Andrews, andrews, "0.1.0", "Andrews' squeezing mechanism: index-3 DAE, n=27 (IVP Test Set)")
