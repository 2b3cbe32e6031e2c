// Derivatives of an FMU with respect to its parameters, by central differences. FMI gives
// none in continuous-time mode (its directional derivatives' knowns there are states and
// inputs), and a fixed parameter can only be set before initialisation: so each parameter
// gets two more instances of the model, started with it moved up and down by
// eps^(1/3) max(|p_j|, 1e-8). They follow the main instance through its events (the same
// event iteration at the same y) so that their discrete state stays the main one's, and
// are asked for their derivatives or event indicators at the solver's (t, y).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "model_exchange.hpp"

namespace daekit::fmu {

class ParameterShadows {
 public:
  // Opens one more instance of the model; starts one with the given parameter values
  // (start values, parameters, initialisation, event iteration, continuous-time mode).
  using Open = std::function<std::unique_ptr<ModelExchange>()>;
  using Start = std::function<void(ModelExchange&, const std::vector<double>& p)>;
  // The inputs at t: the continuous ones, or every one in event mode (event = true).
  using Inputs = std::function<ModelExchange::Result(ModelExchange&, double t, bool event)>;
  ParameterShadows(Open open, Start start, Inputs inputs)
      : open_(std::move(open)), start_(std::move(start)), inputs_(std::move(inputs)) {}

  // The instances for parameters p, made or restarted when p or the run changed since.
  // Throws std::runtime_error when an instance cannot be made or started.
  void prepare(const std::vector<double>& p);
  // The next prepare() restarts every instance (a new solve, new parameters).
  void invalidate() { fresh_ = false; }
  bool active() const { return !instances_.empty(); }

  enum class Quantity { derivatives, indicators };
  // d(quantity)/dp at (t, y): m x np column-major into `out`.
  ModelExchange::Result columns(Quantity what, double t, const double* y, std::size_t n, std::size_t m, double* out);
  // Each instance through the event the main instance handles at (t, y-).
  ModelExchange::Result follow_event(double t, const double* y, std::size_t n);
  ModelExchange::Result follow_step(double t, const double* y, std::size_t n);
  // The failing instance's message.
  const std::string& error() const { return error_; }

 private:
  struct Instance {
    std::unique_ptr<ModelExchange> fmu;
    double value = 0.0;  // its moved parameter's value
  };
  ModelExchange::Result at(Instance& i, double t, const double* y, std::size_t n);
  ModelExchange::Result failed(Instance& i, ModelExchange::Result r);

  Open open_;
  Start start_;
  Inputs inputs_;
  std::vector<Instance> instances_;  // 2j: p_j moved up, 2j + 1: down
  std::vector<double> p_, plus_, minus_;
  bool fresh_ = false;
  std::string error_;
};

}  // namespace daekit::fmu
