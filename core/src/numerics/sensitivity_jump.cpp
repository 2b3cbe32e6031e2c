#include "daekit/numerics/sensitivity_jump.hpp"

#include <cmath>
#include <limits>

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/time_text.hpp"

namespace daekit {

SensitivityJump::SensitivityJump(ProblemView& problem, const SolveRequest& request)
    : problem_(problem), request_(request), equations_(problem, request) {}

std::string SensitivityJump::refused() const {
  if (problem_.nroots() > 0 && !problem_.has_root_derivatives())
    return "the problem gives no dg/dy, dg/dp (roots_dgdp), which the sensitivities need at its root events "
           "(the SDK gives them for every problem with root functions)";
  return "";
}

Status SensitivityJump::slope(double t, const Eigen::VectorXd& y, Eigen::VectorXd& yp, std::string* why) {
  f_.resize(y.size());
  if (problem_.rhs(t, y, f_) != Eval::ok) return *why = problem_.last_message(), Status::evaluation_failure;
  if (problem_.mass_kind() == MassKind::identity) {
    yp = f_;
    return Status::success;
  }
  if (const Status st = set_up_mass(t, y, why); st != Status::success) return st;
  derivative_from_mass(mass_, problem_, f_, yp);
  // Fails where the model does, or where J_aa is singular (index 2: refused before a run).
  if (!equations_.algebraic_slopes(t, y, yp, why)) return Status::evaluation_failure;
  return Status::success;
}

Status SensitivityJump::set_up_mass(double t, const Eigen::VectorXd& y, std::string* why) {
  if ((!mass_ready_ || problem_.mass_kind() != MassKind::constant) && mass_.setup(problem_, t, y) != Eval::ok)
    return *why = problem_.last_message(), Status::evaluation_failure;
  mass_ready_ = true;
  return Status::success;
}

Status SensitivityJump::before(const dk_event& event, const Eigen::VectorXd& y_minus, const Eigen::MatrixXd& s_minus,
                               std::string* why) {
  y_minus_ = y_minus;
  s_minus_ = s_minus;
  dtau_.setZero(s_minus.cols());
  if (const Status s = slope(event.t, y_minus_, yp_minus_, why); s != Status::success) return s;
  if (event.kind != DK_EVENT_ROOT || event.nfired == 0) return Status::success;  // a fixed time
  return event_time_derivative(event, y_minus, why);
}

Status SensitivityJump::explicit_time_derivative(double t, const Eigen::VectorXd& y, std::string* why) {
  const auto m = static_cast<Eigen::Index>(problem_.nroots());
  g_plus_.resize(m);
  g_minus_.resize(m);
  const double delta =
      std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), std::abs(request_.tend - request_.t0));
  if (problem_.roots(t + delta, y, nullptr, g_plus_) != Eval::ok ||
      problem_.roots(t - delta, y, nullptr, g_minus_) != Eval::ok)
    return *why = problem_.last_message(), Status::evaluation_failure;
  dgdt_ = (g_plus_ - g_minus_) / (2.0 * delta);
  return Status::success;
}

// Simultaneous roots share tau: the first that crosses transversally defines it.
Status SensitivityJump::event_time_derivative(const dk_event& event, const Eigen::VectorXd& y_minus,
                                              std::string* why) {
  if (problem_.root_derivatives(event.t, y_minus, dgdy_, dgdp_) != Eval::ok)
    return *why = problem_.last_message(), Status::evaluation_failure;
  if (const Status s = explicit_time_derivative(event.t, y_minus, why); s != Status::success) return s;
  for (std::size_t k = 0; k < event.nfired; ++k) {
    const Eigen::Index i = event.fired[k];
    const double dgdt = dgdt_[i];
    const double along = dgdy_.row(i).dot(yp_minus_);
    const double rate = dgdt + along;
    // g's rate along the solution against the size of its parts: tangential when they
    // cancel to round-off, where tau does not move smoothly with q.
    const double size = std::abs(dgdt) + dgdy_.row(i).cwiseAbs().dot(yp_minus_.cwiseAbs());
    if (!(std::abs(rate) > 1e-10 * size)) continue;
    for (Eigen::Index c = 0; c < s_minus_.cols(); ++c) {
      const std::int32_t q = request_.sens_index[static_cast<std::size_t>(c)];
      const double dgdq = q >= 0 ? dgdp_(i, q) : 0.0;
      dtau_[c] = -(dgdy_.row(i).dot(s_minus_.col(c)) + dgdq) / rate;
    }
    return Status::success;
  }
  *why = "root function " + problem_.root_name(static_cast<std::size_t>(event.fired[0])) + " reaches zero " +
         at_time(event.t) +
         " tangentially (dg/dt = 0 along the solution): the event's time does not move smoothly with the parameters, "
         "and the sensitivities cannot be carried past it";
  return Status::unsupported_problem;
}

Status SensitivityJump::after(const dk_event& event, const Eigen::VectorXd& y_plus, bool y_changed, bool reinit,
                              Eigen::MatrixXd& s, std::string* why) {
  // A DAE re-initialised after the reset moves on from consistent y+: its slope there.
  y_plus_ = y_plus;
  if (reinit && problem_.mass_kind() != MassKind::identity) {
    if (const Status st = set_up_mass(event.t, y_plus_, why); st != Status::success) return st;
    const RestartOutcome r = reinitialise_after_event(problem_, request_, &mass_, event.t, EventRestart{.reinit = true}, y_plus_, nullptr);
    if (r.status != Status::success) return *why = r.message, r.status;
  }
  if (const Status st = slope(event.t, y_plus_, yp_plus_, why); st != Status::success) return st;
  if (!y_changed) {
    s = s_minus_ + (yp_minus_ - yp_plus_) * dtau_;
    return Status::success;
  }
  const Eval e = problem_.reset_derivatives(event, y_minus_, dRdy_, dRdp_);
  if (e == Eval::not_provided) {
    *why = "the event " + at_time(event.t) +
           " changed y, and the problem gives no derivatives of that reset (event_derivatives), which the "
           "sensitivities need to go on past it";
    return Status::unsupported_problem;
  }
  if (e != Eval::ok) return *why = problem_.last_message(), Status::evaluation_failure;
  s = dRdy_ * s_minus_ + (dRdy_ * yp_minus_ - yp_plus_) * dtau_;
  for (Eigen::Index c = 0; c < s.cols(); ++c)
    if (const std::int32_t q = request_.sens_index[static_cast<std::size_t>(c)]; q >= 0) s.col(c) += dRdp_.col(q);
  return Status::success;
}

}  // namespace daekit
