#include "parameter_shadows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace daekit::fmu {

void ParameterShadows::prepare(const std::vector<double>& p) {
  if (fresh_ && p == p_) return;
  p_ = p;
  instances_.resize(2 * p.size());
  for (std::size_t k = 0; k < instances_.size(); ++k) {
    Instance& i = instances_[k];
    const std::size_t j = k / 2;
    const double delta = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(p[j]), 1e-8);
    std::vector<double> moved = p;
    moved[j] += k % 2 == 0 ? delta : -delta;
    i.value = moved[j];
    if (!i.fmu) {
      i.fmu = open_();
    } else if (i.fmu->reset() != ModelExchange::Result::ok) {
      throw std::runtime_error("resetting an instance for df/dp: " + i.fmu->error());
    }
    start_(*i.fmu, moved);
  }
  fresh_ = true;
}

ModelExchange::Result ParameterShadows::failed(Instance& i, ModelExchange::Result r) {
  error_ = "the instance with a parameter moved to " + std::to_string(i.value) + " (for df/dp): " + i.fmu->error();
  return r;
}

ModelExchange::Result ParameterShadows::at(Instance& i, double t, const double* y, std::size_t n) {
  ModelExchange::Result r = i.fmu->set_time(t);
  if (r == ModelExchange::Result::ok) r = inputs_(*i.fmu, t, false);
  if (r == ModelExchange::Result::ok) r = i.fmu->set_states(y, n);
  return r == ModelExchange::Result::ok ? r : failed(i, r);
}

ModelExchange::Result ParameterShadows::columns(Quantity what, double t, const double* y, std::size_t n, std::size_t m,
                                                double* out) {
  plus_.resize(m);
  minus_.resize(m);
  for (std::size_t j = 0; j < p_.size(); ++j) {
    for (std::size_t side = 0; side < 2; ++side) {
      Instance& i = instances_[2 * j + side];
      std::vector<double>& values = side == 0 ? plus_ : minus_;
      ModelExchange::Result r = at(i, t, y, n);
      if (r != ModelExchange::Result::ok) return r;
      r = what == Quantity::derivatives ? i.fmu->get_derivatives(values.data(), m)
                                        : i.fmu->get_event_indicators(values.data(), m);
      if (r != ModelExchange::Result::ok) return failed(i, r);
    }
    const double width = instances_[2 * j].value - instances_[2 * j + 1].value;
    for (std::size_t row = 0; row < m; ++row) out[j * m + row] = (plus_[row] - minus_[row]) / width;
  }
  return ModelExchange::Result::ok;
}

ModelExchange::Result ParameterShadows::follow_event(double t, const double* y, std::size_t n) {
  for (Instance& i : instances_) {
    ModelExchange::Result r = at(i, t, y, n);
    if (r == ModelExchange::Result::ok) r = i.fmu->enter_event_mode();
    if (r == ModelExchange::Result::ok) r = inputs_(*i.fmu, t, true);
    ModelExchange::DiscreteUpdate update;
    for (int k = 0; r == ModelExchange::Result::ok && k < 1000; ++k) {
      r = i.fmu->update_discrete_states(&update);
      if (!update.again || update.terminate) break;
    }
    if (r == ModelExchange::Result::ok) r = i.fmu->enter_continuous_time_mode();
    if (r != ModelExchange::Result::ok) return failed(i, r);
  }
  return ModelExchange::Result::ok;
}

ModelExchange::Result ParameterShadows::follow_step(double t, const double* y, std::size_t n) {
  for (Instance& i : instances_) {
    ModelExchange::Result r = at(i, t, y, n);
    bool enter_event_mode = false, terminate = false;
    if (r == ModelExchange::Result::ok) r = i.fmu->completed_integrator_step(&enter_event_mode, &terminate);
    if (r != ModelExchange::Result::ok) return failed(i, r);
  }
  return ModelExchange::Result::ok;
}

}  // namespace daekit::fmu
