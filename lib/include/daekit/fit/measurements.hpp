// Measurements a fit compares the model with: one experiment per data file (CSV with the
// header t,name,value,sigma), and each experiment's conditions (parameter values and
// initial values that differ from the problem's), read from a condition table
// (CSV with the header experiment,NAME,...), as PEtab keeps measurements and conditions apart.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace daekit::fit {

// One observation: at time t, the variable `name` (a component of y) was `value`, with
// standard deviation sigma. `line` is its line in `source`, for messages.
struct Measurement {
  double t = 0, value = 0, sigma = 1;
  std::string name;
  std::size_t line = 0;
};

struct Experiment {
  std::string id;      // the data file's name without folder and extension
  std::string source;  // where it was read from
  std::vector<Measurement> measurements;
  // The experiment's conditions: a real parameter's value, or an initial value "y0:NAME".
  std::map<std::string, double> conditions;
};

// Reads one data file; UsageError naming the file and line for anything unreadable: a
// header other than t,name,value,sigma, a field count other than 4, a time, value or
// sigma that is not a finite number, sigma <= 0, an empty name, no measurement at all.
// Blank lines and lines starting with '#' are skipped.
Experiment read_experiment(const std::string& path);
// The same from text (for the Python API and tests); `source` names it in messages.
Experiment parse_experiment(const std::string& text, const std::string& id, const std::string& source);

// Reads a condition table into the experiments: the first column names an experiment
// (one of `experiments`, each at most once), the others a real parameter or "y0:NAME";
// an empty cell keeps the problem's value. UsageError names the file and line.
void read_conditions(const std::string& path, std::vector<Experiment>& experiments);
void parse_conditions(const std::string& text, const std::string& source, std::vector<Experiment>& experiments);

}  // namespace daekit::fit
