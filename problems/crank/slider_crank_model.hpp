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
//
// A template over the scalar: built for doubles and for the SDK's duals, whose
// derivatives give the problems their exact Jacobians (sdk/autodiff.hpp).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <daekit/sdk/autodiff.hpp>

namespace daekit::crank {

template <class T> using Vec7Of = Eigen::Matrix<T, 7, 1>;
template <class T> using Mat7Of = Eigen::Matrix<T, 7, 7>;
template <class T> using Mat37Of = Eigen::Matrix<T, 3, 7>;
template <class T> using Vec3Of = Eigen::Matrix<T, 3, 1>;
using Vec7 = Vec7Of<double>;
using Vec3 = Vec3Of<double>;

// The data set of the test set's crank.f (SI units) under its names: the problems' real
// parameters (`--param EE=2.1e11`), the test set's values their nominal ones. Gravity is
// switched off in that data set (GRAV = 0), so its terms are absent.
struct Constants {
  double m2 = 0.151104, m3 = 0.075552;  // rod and block masses
  double l1 = 0.15, l2 = 0.30;          // crank and rod lengths
  double j1 = 0.002727, j2 = 0.0045339259;  // moments of inertia
  double young = 0.20e12;               // the rod's Young modulus (EE)
  double width = 0.0080, height = 0.0080;  // its cross-section (BB, HH)
  double rho = 7870.0;                  // its density
  double omega = 150.0;                 // the prescribed crank speed, rad/s
  static constexpr std::size_t count = 11;
  static constexpr const char* names[count] = {"M2", "M3", "L1", "L2", "J1", "J2", "EE", "BB", "HH", "RHO", "OMEGA"};
  double* values() { return &m2; }
  const double* values() const { return &m2; }
};

struct Options {
  bool nonlinear_stiffness = false;  // the test set's reference: linear stiffness K q only
  bool damping = false;              // and no structural damping
};

// Everything the equations of motion need at one configuration and velocity.
template <class T>
struct KinematicsOf {
  Mat7Of<T> mass;       // M(x)
  Vec7Of<T> force;      // F(x, x'): Coriolis, centrifugal, stiffness (and damping)
  Mat37Of<T> g;         // G(x) = dg/dx
  Vec3Of<T> position;   // g(x, t)
  Vec3Of<T> velocity;   // G(x) x' + dg/dt
  Vec3Of<T> curvature;  // the part of d/dt (G x') that does not contain x'': (dG/dt) x'
};
using Kinematics = KinematicsOf<double>;

class Model {
 public:
  explicit Model(Options options, Constants constants = {});
  template <class T>
  void evaluate(double t, const Vec7Of<T>& x, const Vec7Of<T>& v, KinematicsOf<T>& k) const;

 private:
  Options options_;
  Constants c_;
  Eigen::Matrix4d mq_, kq_, bq_, dq_;
  Eigen::Vector4d c1_, c2_, c12_, c21_;
};

extern template void Model::evaluate<double>(double, const Vec7&, const Vec7&, Kinematics&) const;
extern template void Model::evaluate<AutoDiffScalar>(double, const Vec7Of<AutoDiffScalar>&, const Vec7Of<AutoDiffScalar>&,
                                                     KinematicsOf<AutoDiffScalar>&) const;

}  // namespace daekit::crank
