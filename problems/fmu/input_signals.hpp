// Signals for an FMU's inputs from a CSV file, as FMPy takes them: a first column `time`
// (non-decreasing), then one column per input variable, named as in modelDescription.xml.
// A continuous real input is linear between rows and held before the first row and after
// the last; a discrete input (integer, boolean, or a real of discrete variability) holds
// each row's value from its time on. Two rows at one time are a jump at that time. The
// times where a signal jumps (a discrete input changes, a continuous one has two rows at
// one time) are time events: FMI lets discrete inputs change only in event mode, and a
// solver must not step across a jump.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model_description.hpp"
#include "model_exchange.hpp"

namespace daekit::fmu {

class InputSignals {
 public:
  InputSignals() = default;  // no signals
  // Throws std::invalid_argument naming the file, its line and what is wrong: a column
  // that is not an input of the model (the closest names suggested), a name given twice,
  // a value that does not parse as its variable's type, times that decrease or are not
  // finite, a row with too few or too many fields, no rows.
  InputSignals(const std::filesystem::path& csv, const ModelDescription& md);

  bool empty() const { return signals_.empty(); }
  const std::vector<const Variable*>& variables() const { return variables_; }

  // The rows' times where no signal jumps: breakpoints. A continuous input has a kink
  // there, which an error estimate can miss when a step spans it (measured: rodas5 stepped
  // from 2.43 to 4 across one, 0.39 off at rtol 1e-8), so steps land on them.
  std::vector<double> breakpoints() const;
  // The first jump after t; +infinity when none is left.
  double next_jump_after(double t) const;
  bool jumps_at(double t) const;
  // The continuous inputs at t (the left limit when `left`: a jump at t not yet handled).
  ModelExchange::Result set_continuous(ModelExchange& fmu, double t, bool left) const;
  // Every input at t, the right limit: before initialisation and in event mode.
  ModelExchange::Result set_all(ModelExchange& fmu, double t) const;

 private:
  struct Signal {
    const Variable* variable;
    bool continuous;  // a real of continuous variability: linear between rows
    std::vector<double> values;  // per row
  };
  double value(const Signal& s, double t, bool left) const;
  static ModelExchange::Result set(ModelExchange& fmu, const Variable& v, double value);

  std::vector<double> times_;
  std::vector<Signal> signals_;
  std::vector<const Variable*> variables_;
  std::vector<double> jumps_;  // sorted, distinct
};

}  // namespace daekit::fmu
