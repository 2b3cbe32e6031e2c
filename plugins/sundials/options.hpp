// The options of cvode and ida, each declared once (sdk/option_table.hpp): the list
// `daekit info` shows, the reading and the range checks come from these tables.
#pragma once

#include <daekit/sdk/option_table.hpp>
#include <string>
#include <utility>
#include <vector>

namespace daekit::plugins {

// Which LU the Newton iteration uses; "core" is daekit's dense LU (Eigen, blocked).
inline std::vector<std::pair<std::string, std::string>> sundials_linear_solvers() {
  return {{"auto", "auto"}, {"dense", "dense"}, {"core", "core"}, {"klu", "klu"}};
}
inline const char* sundials_linear_solver_help() {
  return "SUNDIALS' dense LU, the core's dense LU (Eigen, blocked: ~10x faster at n ~ 1000), or KLU (auto: KLU "
         "when the problem gives a pattern, else dense)";
}

// The core's IterationMatrix options that reach SUNDIALS: the ordering of its KLU and
// coloured differences (the sparse LU itself is SUNDIALS' KLU).
inline std::vector<OptionDesc> sundials_iteration_matrix_options() {
  std::vector<OptionDesc> rows;
  for (auto& o : iteration_matrix_options())
    if (o.key != "sparse_lu") rows.push_back(std::move(o));
  return rows;
}

struct CvodeOptions {
  int max_order = 5;
  std::string linear_solver = "auto";
};

inline const OptionTable<CvodeOptions>& cvode_options() {
  static const auto table = OptionTable<CvodeOptions>()
                                .integer("max_order", &CvodeOptions::max_order, between(1, 5), "highest BDF order (1-5)")
                                .choice("linear_solver", &CvodeOptions::linear_solver, sundials_linear_solvers(),
                                        sundials_linear_solver_help())
                                .listed(sundials_iteration_matrix_options());
  return table;
}

struct IdaOptions {
  int max_order = 5;
  int max_nonlinear_iterations = 4;
  std::string linear_solver = "auto";
  std::string suppress_alg = "auto";
  std::string difference_quotients = "ida";
  bool calcic_line_search = false;
  bool initial_step_retry = true;
};

inline const OptionTable<IdaOptions>& ida_options() {
  static const auto table =
      OptionTable<IdaOptions>()
          .integer("max_order", &IdaOptions::max_order, between(1, 5), "highest BDF order (1-5)")
          .integer("max_nonlinear_iterations", &IdaOptions::max_nonlinear_iterations, at_least(1),
                   "Newton iterations per step before a convergence failure")
          .choice("linear_solver", &IdaOptions::linear_solver, sundials_linear_solvers(), sundials_linear_solver_help())
          .choice("suppress_alg", &IdaOptions::suppress_alg,
                  std::vector<std::pair<std::string, std::string>>{{"auto", "auto"}, {"on", "on"}, {"off", "off"}},
                  "leave algebraic components out of IDA's error test (auto: on when the problem has index-2/3 "
                  "components or --suppress-algebraic is given)")
          .choice("difference_quotients", &IdaOptions::difference_quotients,
                  std::vector<std::pair<std::string, std::string>>{{"ida", "ida"}, {"daekit", "daekit"}},
                  "without an analytic Jacobian: IDA's own difference quotients, or daekit's (increments scaled by "
                  "the tolerances, better for tiny components)")
          .flag("calcic_line_search", &IdaOptions::calcic_line_search,
                "IDACalcIC's line search (off by default: on Robertson in residual form it stopped after one halved "
                "Newton step, leaving y1' = 0.48 instead of -0.04)")
          .flag("initial_step_retry", &IdaOptions::initial_step_retry,
                "when IDA's own first step fails, retry with the automatic initial step of daekit's core and larger "
                "ones")
          .listed(sundials_iteration_matrix_options());
  return table;
}

}  // namespace daekit::plugins
