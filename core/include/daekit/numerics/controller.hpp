// Step-size controllers shared by all solvers. Each turns the weighted error
// norm of the step just tried (<= 1 means accepted) into the factor h_new / h.
// `q` is the exponent order: the order of the error estimate plus one.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace daekit {

struct ControllerLimits {
  double safety = 0.9;
  double fac_min = 0.2;  // never shrink by more than 5
  double fac_max = 6.0;  // never grow by more than 6
};

class StepController {
 public:
  explicit StepController(double q, ControllerLimits limits = {}) : q_(q), limits_(limits) {}
  virtual ~StepController() = default;

  virtual void reset() {}
  virtual double accepted(double h, double err) = 0;
  // After a rejection the step never grows.
  virtual double rejected(double h, double err);

 protected:
  double clamp(double fac) const;
  double basic(double err) const;  // safety * err^(-1/q), clamped

  double q_;
  ControllerLimits limits_;
};

// Elementary controller: h_new = h * safety * err^(-1/q).
class IController : public StepController {
 public:
  using StepController::StepController;
  double accepted(double h, double err) override;
};

// Proportional-integral controller (Gustafsson 1991 / Soederlind): remembers the last accepted error.
class PIController : public StepController {
 public:
  using StepController::StepController;
  void reset() override { err_prev_ = 0.0; }
  double accepted(double h, double err) override;

 private:
  double err_prev_ = 0.0;
};

// Gustafsson's predictive controller as RADAU5 and RODAS use it: the step after an
// accepted one also looks at how the error changed from the previous accepted step.
class PredictiveController : public StepController {
 public:
  using StepController::StepController;
  void reset() override { h_acc_ = 0.0; err_acc_ = 0.0; }
  double accepted(double h, double err) override;

 private:
  double h_acc_ = 0.0, err_acc_ = 0.0;
};

// "i", "pi" or "predictive"; nullptr for an unknown name.
std::unique_ptr<StepController> make_controller(const std::string& name, double q, ControllerLimits limits = {});
inline const std::vector<std::string>& controller_names() {
  static const std::vector<std::string> names{"predictive", "pi", "i"};
  return names;
}

}  // namespace daekit
