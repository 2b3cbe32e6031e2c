#include "daekit/numerics/controller.hpp"

#include <algorithm>
#include <cmath>

namespace daekit {
namespace {
// An error of exactly zero (a linear problem solved exactly) must not blow up the step.
double guard(double err) { return std::max(err, 1e-10); }
}  // namespace

double StepController::clamp(double fac) const {
  if (!std::isfinite(fac)) return limits_.fac_min;
  return std::min(limits_.fac_max, std::max(limits_.fac_min, fac));
}

double StepController::basic(double err) const {
  return clamp(limits_.safety * std::pow(guard(err), -1.0 / q_));
}

double StepController::rejected(double /*h*/, double err) { return std::min(1.0, basic(err)); }

double IController::accepted(double /*h*/, double err) { return basic(err); }

double PIController::accepted(double /*h*/, double err) {
  // beta1 = 0.7/q, beta2 = 0.4/q: the PI.4.2-like choice Hairer recommends for stiff codes.
  double fac = limits_.safety * std::pow(guard(err), -0.7 / q_);
  if (err_prev_ > 0.0) fac *= std::pow(err_prev_, 0.4 / q_);
  err_prev_ = guard(err);
  return clamp(fac);
}

double PredictiveController::accepted(double h, double err) {
  double fac = basic(err);
  if (h_acc_ != 0.0) {
    // Gustafsson (1994): predict how the error evolves from the last two accepted steps.
    double gus = (h / h_acc_) * std::pow(guard(err) * guard(err) / err_acc_, -1.0 / q_) * limits_.safety;
    fac = std::min(fac, clamp(gus));
  }
  h_acc_ = h;
  err_acc_ = std::max(1e-2, err);
  return fac;
}

std::unique_ptr<StepController> make_controller(const std::string& name, double q, ControllerLimits limits) {
  if (name == "predictive") return std::make_unique<PredictiveController>(q, limits);
  if (name == "pi") return std::make_unique<PIController>(q, limits);
  if (name == "i") return std::make_unique<IController>(q, limits);
  return nullptr;
}

}  // namespace daekit
