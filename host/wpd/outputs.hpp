// What a sweep leaves in its output folder: results.csv and results.json (one row
// per point, with machine, build, date and plugin versions), gnuplot diagrams as
// SVG and PNG (error against time, error against f evaluations), and the summary
// table printed on the terminal.
#pragma once

#include <daekit/loader/registry.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "../gnuplot.hpp"
#include "instances.hpp"
#include "sweep.hpp"

namespace daekit::host::wpd {

struct SweepInfo {
  std::vector<std::string> problems;  // the instances: problem names, or "fekete-N=40" (instances.hpp)
  std::vector<std::string> problem_plugins, solvers;  // the plugins used, once each
  std::vector<ParameterSweep> parameter_sweeps;       // --param-sweep: the scaling diagrams
  std::vector<std::string> setups;  // the series: setup names (the solvers' own, from --solvers)
  std::string tolerances;  // as given, e.g. "1e-4:1e-8"
  std::string error;       // --error as given
  std::vector<Measure> measures{Measure::final_relative};  // what it names
  int runs = 1, jobs = 1;
  int mpi_ranks = 1;       // the ranks of the MPI launch that ran the points (1: none)
  int ranks_per_host = 1;  // the most ranks that shared one machine
  double target_scd = 0;   // 0: chosen per problem
  std::string reference;   // L2 reference solver and tolerance, in words
  std::string error_reference;  // what the measures beyond `final` were computed against, in words
  std::string final_reference;  // for problems without their own: the solver whose y(tend) scored
  std::string sens_reference;   // `--error sens`: the run whose dy/dq at tend scored
  std::string command_line;     // as typed, to rerun the sweep
  nlohmann::json settings;      // what every run shared: init, atol scale, step limit, time limit
};

void write_csv(const std::string& file, const std::vector<PointResult>& rows);
void write_json(const std::string& file, const std::vector<PointResult>& rows, const SweepInfo& info,
                const loader::Registry& registry);

// Draws the diagrams with gnuplot (run without a shell, in `dir`). Returns false when gnuplot
// failed on a script (its messages are kept beside it); a missing gnuplot is a warning on
// `log` saying how to install it, and true: the data and scripts are written anyway.
bool write_plots(const std::string& dir, const std::vector<PointResult>& rows, const SweepInfo& info,
                 std::ostream& log);

using host::gnuplot_string;
using host::series_style;
using host::svg_and_png;

// The best scd that every setup with a success on this instance reached (NaN: none did).
double common_best_scd(const std::vector<PointResult>& rows, const std::string& instance);
// Each setup's median time to reach scd `target` on one instance, interpolated on its
// log-log curve (else its fastest point beyond the target; NaN: never reached).
std::map<std::string, double> times_to_reach(const std::vector<PointResult>& rows, const std::string& instance,
                                             const std::vector<std::string>& setups, double target);

void print_summary(std::ostream& out, const std::vector<PointResult>& rows, const SweepInfo& info);

}  // namespace daekit::host::wpd
