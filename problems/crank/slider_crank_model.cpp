#include "slider_crank_model.hpp"

#include <cmath>

namespace daekit::crank {
namespace {

// The test set's crank.f's pi is the 8-digit value the reference was computed with, so it is kept.
constexpr double pi = 3.1415927;

static_assert(sizeof(Constants) == Constants::count * sizeof(double), "Constants::values() walks the fields");

}  // namespace

Model::Model(Options options, Constants constants) : options_(options), c_(constants) {
  const double l2 = c_.l2, young = c_.young, width = c_.width, height = c_.height, rho = c_.rho;
  const double fac_m = rho * width * height * l2;
  const double fac_k = young * width * height / l2;
  const double fac_b = width * height * l2;
  const double slender = (height / l2) * (height / l2);
  mq_.setZero(), kq_.setZero(), bq_.setZero(), dq_.setZero();
  c1_.setZero(), c2_.setZero(), c12_.setZero(), c21_.setZero();
  // Finite-element matrices of the rod: two lateral modal functions (q1, q2) and a
  // quadratic longitudinal ansatz on two nodes (q3, q4).
  mq_(0, 0) = fac_m * 0.5;
  mq_(1, 1) = fac_m * 0.5;
  mq_(2, 2) = fac_m * 8.0;
  mq_(2, 3) = mq_(3, 2) = fac_m * 1.0;
  mq_(3, 3) = fac_m * 2.0;
  kq_(0, 0) = fac_k * std::pow(pi, 4) / 24.0 * slender;
  kq_(1, 1) = fac_k * std::pow(pi, 4) * 2.0 / 3.0 * slender;
  kq_(2, 2) = fac_k * 16.0 / 3.0;
  kq_(2, 3) = kq_(3, 2) = -fac_k * 8.0 / 3.0;
  kq_(3, 3) = fac_k * 7.0 / 3.0;
  const double pi3 = std::pow(pi, 3);
  bq_(0, 2) = -fac_b * 16.0 / pi3;
  bq_(0, 3) = fac_b * (8.0 / pi3 - 1.0 / pi);
  bq_(1, 3) = fac_b * 0.5 / pi;
  bq_(2, 0) = fac_b * 16.0 / pi3;
  bq_(3, 0) = -fac_b * (8.0 / pi3 - 1.0 / pi);
  bq_(3, 1) = -fac_b * 0.5 / pi;
  c1_(2) = fac_b * 2.0 / 3.0;
  c1_(3) = fac_b * 1.0 / 6.0;
  c2_(0) = fac_b * 2.0 / pi;
  c12_(2) = l2 * fac_b * 1.0 / 3.0;
  c12_(3) = l2 * fac_b * 1.0 / 6.0;
  c21_(0) = l2 * fac_b * 1.0 / pi;
  c21_(1) = -l2 * fac_b * 0.5 / pi;
  if (options_.damping) {
    // 0.5 % modal damping; the off-diagonal entries differ in the last digits in
    // the source, and are kept as written.
    dq_(0, 0) = 5.0;
    dq_(1, 1) = 25.0;
    dq_(2, 2) = 0.5 * 2.308375455264791e+02;
    dq_(2, 3) = -0.5 * 2.62688487992052e+02;
    dq_(3, 2) = -0.5 * 2.626884879920526e+02;
    dq_(3, 3) = 0.5 * 4.217421837156818e+02;
  }
}

template <class T>
void Model::evaluate(double t, const Vec7Of<T>& x, const Vec7Of<T>& v, KinematicsOf<T>& k) const {
  using std::cos, std::sin;
  using Vec4 = Eigen::Matrix<T, 4, 1>;
  const double m2 = c_.m2, m3 = c_.m3, l1 = c_.l1, l2 = c_.l2, j1 = c_.j1, j2 = c_.j2, rho = c_.rho;
  const double young = c_.young, width = c_.width, height = c_.height, omega = c_.omega;
  const T c1p = cos(x[0]), s1p = sin(x[0]);
  const T c2p = cos(x[1]), s2p = sin(x[1]);
  const T c12 = cos(x[0] - x[1]), s12 = sin(x[0] - x[1]);
  const T v1 = v[0], v2 = v[1];
  const Vec4 q = x.template tail<4>(), qd = v.template tail<4>();
  // The rod's matrices stay doubles: a double times a dual costs N products, a dual
  // times a dual 2N (sdk/dual.hpp).
  const T c1q = c1_.dot(q), c1qd = c1_.dot(qd);
  const T c2q = c2_.dot(q), c2qd = c2_.dot(qd);
  const T c12q = c12_.dot(q), c12qd = c12_.dot(qd);
  const Vec4 mqq = mq_.transpose() * q;
  const Vec4 kqq = kq_.transpose() * q;
  const Vec4 qtbq = bq_.transpose() * q;
  const Vec4 bqqd = bq_ * qd;
  const T qt_mq_q = q.dot(mqq), qdt_mq_q = qd.dot(mqq), qdt_bq_qd = qd.dot(bqqd);

  // Mass matrix: rigid part plus the coupling with the elastic coordinates.
  Mat7Of<T>& am = k.mass;
  am.setZero();
  am(0, 0) = j1 + m2 * l1 * l1;
  am(0, 1) = 0.5 * l1 * l2 * m2 * c12 + rho * l1 * (s12 * c2q + c12 * c1q);
  am(1, 1) = j2 + qt_mq_q + 2.0 * rho * c12q;
  am(2, 2) = m3;
  for (int i = 0; i < 4; ++i) {
    am(0, 3 + i) = rho * l1 * (-s12 * c1_(i) + c12 * c2_(i));
    am(1, 3 + i) = rho * c21_(i) + rho * qtbq(i);
  }
  am.template block<4, 4>(3, 3) = mq_.cast<T>();
  for (int i = 0; i < 7; ++i)
    for (int j = i + 1; j < 7; ++j) am(j, i) = am(i, j);

  // Constraint Jacobian; the block is guided along the rod's axis, so only the
  // longitudinal end displacement q4 enters the constraints.
  const T rod = l2 + q[3];
  Mat37Of<T>& g = k.g;
  g.setZero();
  g(0, 0) = l1 * c1p, g(0, 1) = rod * c2p, g(0, 6) = s2p;
  g(1, 0) = l1 * s1p, g(1, 1) = rod * s2p, g(1, 2) = 1.0, g(1, 6) = -c2p;
  g(2, 0) = 1.0;

  // Forces: rigid-body inertia terms, then the superposed elastic motion.
  Vec7Of<T>& f = k.force;
  f.setZero();
  f(0) = -0.5 * l1 * l2 * m2 * v2 * v2 * s12 + rho * l1 * v2 * v2 * (-s12 * c1q + c12 * c2q) -
         2.0 * rho * l1 * v2 * (c12 * c1qd + s12 * c2qd);
  f(1) = 0.5 * l1 * l2 * m2 * v1 * v1 * s12 + rho * l1 * v1 * v1 * (s12 * c1q - c12 * c2q) - 2.0 * rho * v2 * c12qd -
         2.0 * v2 * qdt_mq_q - rho * qdt_bq_qd;
  for (int i = 0; i < 4; ++i)
    f(3 + i) = v2 * v2 * mqq(i) +
               rho * (v2 * v2 * c12_(i) + l1 * v1 * v1 * (c12 * c1_(i) + s12 * c2_(i)) + 2.0 * v2 * bqqd(i)) - kqq(i);
  if (options_.damping) f.template tail<4>() -= dq_.transpose() * qd;
  if (options_.nonlinear_stiffness) {
    const double fk = 0.5 * young * width * height / (l2 * l2) * pi * pi;
    const double fb = 80.0 / (pi * pi * 9.0);
    const T mix = -4.0 * q[2] + 2.0 * q[3];
    f(3) -= fk * (q[0] * q[3] - fb * q[1] * mix);
    f(4) -= fk * (4.0 * q[1] * q[3] - fb * q[0] * mix);
    f(5) -= fk * 4.0 * fb * q[0] * q[1];
    f(6) -= fk * (0.5 * q[0] * q[0] + 2.0 * q[1] * q[1] - 2.0 * fb * q[0] * q[1]);
  }

  k.position = Vec3Of<T>(l1 * s1p + rod * s2p, x[2] - l1 * c1p - rod * c2p, x[0] - omega * t);
  k.velocity = g * v;
  k.velocity[2] -= omega;
  k.curvature = Vec3Of<T>(-l1 * s1p * v1 * v1 - rod * s2p * v2 * v2 + 2.0 * v2 * c2p * qd[3],
                          l1 * c1p * v1 * v1 + rod * c2p * v2 * v2 + 2.0 * v2 * s2p * qd[3], T(0.0));
}

template void Model::evaluate<double>(double, const Vec7&, const Vec7&, Kinematics&) const;
template void Model::evaluate<AutoDiffScalar>(double, const Vec7Of<AutoDiffScalar>&, const Vec7Of<AutoDiffScalar>&,
                                              KinematicsOf<AutoDiffScalar>&) const;

}  // namespace daekit::crank
