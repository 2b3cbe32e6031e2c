// The jump of forward sensitivities at an event (ABI 1.3), the same for every family.
// At an event at tau whose reaction maps y- to y+ = R(y-, p), each column s_q = dy/dq
// continues from
//   s+ = R_y s- + R_q + (R_y y'- - y'+) dtau/dq,
// where a root g_i(t, y, p) = 0 moves with q as
//   dtau/dq = -(g_y s- + g_q) / (dg/dt + g_y y'-)
// and an event at a fixed time (a time event, a step event) does not (dtau/dq = 0).
// Why: the state just after the event is R(y(tau(q)-, q), q), whose derivative is
// R_y (s- + y'- dtau/dq) + R_q; s+ is the derivative at the fixed time tau, so the motion
// y'+ dtau/dq of the right branch comes off. (Written with the opposite sign of the last
// term, as the sensitivity is sometimes quoted, a bounce's dx/de would come out wrong:
// tests/api/test_sensitivities_events.cpp.)
// y'- and y'+ solve M y' = f(tau, y) before and after on_event (which may switch the
// problem's equations), a DAE's algebraic components' from the constraints' derivative;
// a reaction that leaves y as it was is R = identity. For an initial value y0_i, R_q and
// g_q are 0. A DAE's algebraic rows of s+ are not the formula's: the family makes them
// consistent with y+ when it restarts (SensitivityEquations::make_consistent).
#pragma once

#include <Eigen/Core>
#include <string>

#include "daekit/abi.h"
#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class SensitivityJump {
 public:
  SensitivityJump(ProblemView& problem, const SolveRequest& request);
  // Why sensitivities cannot be carried through this problem's events ("" when they can).
  std::string refused() const;

  // At the left limit (tau, y-) with s-, before on_event runs: y'- and dtau/dq.
  Status before(const dk_event& event, const Eigen::VectorXd& y_minus, const Eigen::MatrixXd& s_minus,
                std::string* why);
  // After on_event left y+ (and the problem's new mode): s+ into s. y_changed: whether
  // on_event moved y (else R = identity); reinit: it asked for re-initialisation, so y'+
  // is that of y+ with its algebraic components re-solved, as the method restarts from.
  Status after(const dk_event& event, const Eigen::VectorXd& y_plus, bool y_changed, bool reinit, Eigen::MatrixXd& s,
               std::string* why);

 private:
  Status slope(double t, const Eigen::VectorXd& y, Eigen::VectorXd& yp, std::string* why);
  Status set_up_mass(double t, const Eigen::VectorXd& y, std::string* why);
  // dtau/dq from the first fired root that crosses zero transversally.
  Status event_time_derivative(const dk_event& event, const Eigen::VectorXd& y_minus, std::string* why);
  // dg/dt at fixed y into dgdt_, by a central difference.
  Status explicit_time_derivative(double t, const Eigen::VectorXd& y, std::string* why);

  ProblemView& problem_;
  const SolveRequest& request_;
  SensitivityEquations equations_;  // a DAE's algebraic slopes
  MassMatrix mass_;
  bool mass_ready_ = false;
  Eigen::VectorXd y_minus_, y_plus_, yp_minus_, yp_plus_, f_, g_plus_, g_minus_, dgdt_;
  Eigen::MatrixXd s_minus_, dgdy_, dgdp_, dRdy_, dRdp_;
  Eigen::RowVectorXd dtau_;  // dtau/dq per column
};

}  // namespace daekit
