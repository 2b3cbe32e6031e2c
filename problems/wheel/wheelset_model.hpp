// The railway wheelset of Simeon, Fuehrer & Rentrop (IVP Test Set `wheel`): a wheelset
// with conical wheels on circular rails, running at 30 m/s on straight track, with
// Jaschinski's smooth creep-force law. The equations of motion in the test set's own
// ordering of the unknowns
//   y = (x, y, z, theta, phi | their velocities | beta | lambda1, lambda2 |
//        psi_L, xi_L, psi_R, xi_R)
// (the problem plugin reorders to put the multipliers last). `forces` returns the
// right-hand sides of the 17 equations, or false when the wheelset leaves the profiles
// (derailment) or the contact planes degenerate. A template over the scalar, built for
// doubles and for the SDK's duals (the exact residual Jacobian, sdk/autodiff.hpp).
#pragma once

#include <daekit/sdk/autodiff.hpp>

namespace daekit::wheelset {

constexpr double wheel_mass = 16.08, inertia1 = 0.0605, inertia2 = 0.366;

template <class T>
bool forces(const T* y, T* f);
extern template bool forces<double>(const double*, double*);
extern template bool forces<AutoDiffScalar>(const AutoDiffScalar*, AutoDiffScalar*);

}  // namespace daekit::wheelset
