// The series of a work-precision sweep: named setups, each a solver with its options and
// run settings, so one solver can be compared with itself under two option sets.
//   --setup NAME=SOLVER[:key=value,...][@rtol*F]     (repeatable)
//   --solvers a,b                                    (shorthand: setups named a and b)
#pragma once

#include <map>
#include <string>
#include <vector>

namespace daekit::host::wpd {

struct Setup {
  std::string name;    // the series' label in rows, plots and the summary
  std::string solver;  // the solver plugin
  std::map<std::string, std::string> solver_options;
  // Run settings of `daekit run`, by their option names without dashes: suppress-algebraic,
  // index-scaling (true/false), jacobian (auto/analytic/fd), init (check/fix/trust).
  std::map<std::string, std::string> run_settings;
  double tol_factor = 1.0;  // the solver gets rtol (and a scaled atol) times this
  // Everything that defines the setup, for the row and to find duplicates.
  std::map<std::string, std::string> all_options() const;
};

// One --setup value; a UsageError names what is wrong.
Setup parse_setup(const std::string& text);
// Setups from --solvers and --setup (and --solver-opt SOLVER:key=value for --solvers);
// a name given twice, or two names for the same solver, options and factor, are refused.
std::vector<Setup> make_setups(const std::vector<std::string>& solvers, const std::vector<std::string>& setup_texts,
                               const std::vector<std::string>& solver_opts);

}  // namespace daekit::host::wpd
