// The flexible slider crank of B. Simeon (IVP Test Set `crank`): a crank (rigid,
// driven at constant angular speed) and an elastic connecting rod (two lateral
// modes, two longitudinal nodes) that pushes a sliding block. Shared by the
// 24-variable semi-explicit DAE (`crank`) and the 17-variable form with the
// configuration-dependent mass matrix in front of the velocity derivatives.
//
// Coordinates x = (phi1, phi2, x3, q1, q2, q3, q4): crank angle, rod angle, block
// position, elastic coordinates. Equations of motion
//   M(x) x'' = F(x, x') - G(x)^T lambda,   constraints g(x, t) = 0 (three of them)
// with g = (l1 sin phi1 + (l2 + q4) sin phi2,  x3 - l1 cos phi1 - (l2 + q4) cos phi2,
// phi1 - omega t).
#pragma once

#include <Eigen/Core>

namespace daekit::crank {

using Vec7 = Eigen::Matrix<double, 7, 1>;
using Mat7 = Eigen::Matrix<double, 7, 7>;
using Mat37 = Eigen::Matrix<double, 3, 7>;
using Vec3 = Eigen::Vector3d;

constexpr double omega = 150.0;  // prescribed crank speed, rad/s

struct Options {
  bool nonlinear_stiffness = false;  // the test set's reference: linear stiffness K q only
  bool damping = false;              // and no structural damping
};

// Everything the equations of motion need at one configuration and velocity.
struct Kinematics {
  Mat7 mass;        // M(x)
  Vec7 force;       // F(x, x'): Coriolis, centrifugal, stiffness (and damping)
  Mat37 g;          // G(x) = dg/dx
  Vec3 position;    // g(x, t)
  Vec3 velocity;    // G(x) x' + dg/dt
  Vec3 curvature;   // the part of d/dt (G x') that does not contain x'': (dG/dt) x'
};

class Model {
 public:
  explicit Model(Options options);
  void evaluate(double t, const Vec7& x, const Vec7& v, Kinematics& k) const;

 private:
  Options options_;
  Eigen::Matrix4d mq_, kq_, bq_, dq_;
  Eigen::Vector4d c1_, c2_, c12_, c21_;
};

}  // namespace daekit::crank
