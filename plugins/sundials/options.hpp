// The options of cvode and ida, each declared once (sdk/option_table.hpp): the list
// `daekit info` shows, the reading and the range checks come from these tables.
#pragma once

#include <daekit/numerics/newton_krylov.hpp>
#include <daekit/sdk/option_table.hpp>
#include <string>
#include <utility>
#include <vector>

namespace daekit::plugins {

// Which LU the Newton iteration uses ("core" is daekit's dense LU, Eigen, blocked), or
// linear_solver=krylov (spgmr, spfgmr, spbcgs): SUNDIALS' own iterative solvers.
inline const std::vector<std::string>& sundials_direct_solvers() {
  static const std::vector<std::string> choices = {"auto", "dense", "core", "klu"};
  return choices;
}
inline const char* sundials_direct_solver_help() {
  return "dense: SUNDIALS' dense LU, core: the core's dense LU (Eigen, blocked: ~10x faster at n ~ 1000), klu: KLU; "
         "auto: KLU when the problem gives a pattern, else dense";
}
inline std::vector<OptionDesc> sundials_linear_solver_options() {
  return krylov_option_rows(sundials_direct_solvers(), sundials_direct_solver_help());
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
  // The Newton iteration with an LU (not Krylov): SUNDIALS' msbj is 51 and its nlscoef
  // 0.1. With them CVODE ended van der Pol (msbj: a Jacobian from inside a relaxation
  // jump) and the Oregonator (nlscoef: a corrector stopped far from the step's solution)
  // on wrong branches with success at rtol 1e-3; docs/solvers/ida.md has the sweep.
  int jac_eval_frequency = 1;
  double nonlin_conv_coef = 0.01;
  KrylovOptions linear;  // linear_solver and Krylov's options, read by read_krylov_options
};

inline const OptionTable<CvodeOptions>& cvode_options() {
  static const auto table = OptionTable<CvodeOptions>()
                                .integer("max_order", &CvodeOptions::max_order, between(1, 5), "highest BDF order (1-5)")
                                .integer("jac_eval_frequency", &CvodeOptions::jac_eval_frequency, at_least(1),
                                         "with an LU: steps a Jacobian may serve before a new iteration matrix gets a "
                                         "new one (SUNDIALS' msbj; 1: every new iteration matrix, as IDA; SUNDIALS' "
                                         "own default is 51)")
                                .real("nonlin_conv_coef", &CvodeOptions::nonlin_conv_coef, between(1e-6, 1),
                                      "with an LU: the Newton iteration's tolerance as a fraction of the error "
                                      "test's (SUNDIALS' nlscoef; its own default is 0.1)")
                                .listed(sundials_linear_solver_options())
                                .listed(sundials_iteration_matrix_options());
  return table;
}

struct IdaOptions {
  int max_order = 5;
  int max_nonlinear_iterations = 4;
  KrylovOptions linear;  // linear_solver and Krylov's options, read by read_krylov_options
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
          .listed(sundials_linear_solver_options())
          .listed(sundials_iteration_matrix_options());
  return table;
}

// Both tables and the linear solver's options, read from the request.
template <class Options>
bool read_sundials_options(const OptionTable<Options>& table, const ProblemView& problem, const SolveRequest& request,
                           Options& options, std::string* why) {
  return table.read(request, options, why) &&
         read_krylov_options(problem, request, sundials_direct_solvers(), options.linear, why);
}

}  // namespace daekit::plugins
