#include <daekit/numerics/column_colouring.hpp>
#include <daekit/solve_request.hpp>
#include <daekit/status.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "child_process.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace daekit::host {
namespace {

// Whether the solver takes linear_solver=krylov: read from its option list (the options
// are the one place a solver declares it).
std::string krylov_support(const dk_solver_info& s) {
  for (std::size_t i = 0; i < s.noptions; ++i) {
    const std::string key = s.options[i].key, type = s.options[i].type;
    if (key != "linear_solver" || type.find("|krylov") == std::string::npos) continue;
    const bool arnoldi = type.find("|arnoldi") != std::string::npos;  // a Rosenbrock-Krylov method's own
    return std::string("yes (--solver-opt linear_solver=krylov, preconditioner=...") +
           (arnoldi ? "; linear_solver=arnoldi: J projected onto a Krylov space of f" : "") + ": docs/krylov.md)";
  }
  return "no";
}

void print_solver(const loader::Plugin& plugin) {
  loader::SolverInstance solver(plugin);
  const dk_solver_info& s = solver.info();
  std::cout << "solver      " << s.name << " " << plugin.manifest.version << "\n"
            << "            " << plugin.manifest.description << "\n"
            << "file        " << plugin.file.string() << "\n"
            << "build       " << plugin.manifest.build_id << " (plugin ABI " << DK_ABI_MAJOR << "."
            << plugin.manifest.abi_minor << ")\n"
            << "order       " << s.order << "\n"
            << "mass matrix up to " << mass_kind_name(static_cast<MassKind>(s.max_mass_kind)) << "\n"
            << "residual    " << (s.residual_form ? "accepts residual-only problems F(t,y,y')=0" : "needs M y' = f")
            << "\n"
            << "DAE index   up to " << s.max_dae_index << (s.max_dae_index == 0 ? " (ODEs only)" : "") << "\n"
            << "dense out   " << ((s.flags & DK_SOLVER_DENSE_OUTPUT) ? "yes" : "no")
            << ((s.flags & DK_SOLVER_KEEP_DENSE) ? ", kept for y(t) after the solve on request (library, Python)" : "")
            << "\n"
            << "sparse      " << ((s.flags & DK_SOLVER_SPARSE) ? "yes (sparse LU when the problem gives a pattern)" : "no")
            << "\n"
            << "krylov      " << krylov_support(s) << "\n"
            << "events      " << ((s.flags & DK_SOLVER_EVENTS) ? "yes (root functions, time events, state resets)" : "no")
            << ((s.flags & DK_SOLVER_EVENT_SAMPLING) ? "; root functions sampled inside every step (--event-samples), "
                                                       "steps bounded by their time scales"
                                                     : "")
            << "\n"
            << "step notification "
            << ((s.flags & DK_SOLVER_STEP_NOTIFICATION) ? "yes (tells the model of every completed step, as FMUs need)"
                                                         : "no")
            << "\n"
            << "constraints " << ((s.flags & DK_SOLVER_CONSTRAINTS) ? "yes (sign constraints on components)" : "no")
            << "\n"
            << "mass store  "
            << ((s.flags & DK_SOLVER_MASS_STORAGE) ? "diagonal and sparse M read as stored (no n x n copy)"
                                                   : "dense (reads every M as an n x n array)")
            << "\n"
            << "sensitivities "
            << ((s.flags & DK_SOLVER_SENSITIVITIES) ? "yes (forward: dy/dp and dy/dy0, --sensitivities)" : "no")
            << "\n"
            << "adjoint     "
            << ((s.flags & DK_SOLVER_ADJOINT) ? "yes (the gradient of a functional, dG/dp, by adjoints)" : "no")
            << "\n"
            << "distributed "
            << ((s.flags & DK_SOLVER_DISTRIBUTED) ? "yes (one problem spread over MPI ranks: mpirun -n R daekit run)" : "no")
            << "\n";
  std::cout << "options (--solver-opt key=value):\n";
  if (s.noptions == 0) std::cout << "  (none)\n";
  for (std::size_t i = 0; i < s.noptions; ++i) {
    const auto& o = s.options[i];
    std::cout << "  " << std::left << std::setw(12) << o.key << " " << std::setw(24) << o.type << " default "
              << std::setw(11) << o.default_value << " " << o.help << "\n";
  }
}

// How solvers get df/dy; a pattern without values is differenced one colour at a time.
// What linear_solver=krylov gets from the problem (docs/krylov.md).
std::string krylov_description(const loader::ProblemInstance& problem) {
  const dk_problem_info& p = problem.info();
  const dk_problem_vtbl& t = *problem.handle().vtbl;
  // A 1.1 table ends before jacobian_vector, a 1.2 one before the Krylov entries: not read there.
  const bool has_jv = DK_HAS_FIELD(&t, dk_problem_vtbl, jacobian_vector) && t.jacobian_vector;
  std::string jv = (p.flags & DK_PROBLEM_DIRECTIONAL_DERIVATIVE) && p.form != DK_FORM_RESIDUAL_ONLY && has_jv
                       ? "J v from the problem"
                       : "J v by differences of f";
  const bool table = DK_HAS_FIELD(&t, dk_problem_vtbl, prec_solve);
  if (p.form == DK_FORM_RESIDUAL_ONLY)
    jv = table && t.residual_jacobian_vector ? "J v from the problem" : "J v by differences of F";
  const bool own = table && (p.flags & DK_PROBLEM_PRECONDITIONER) && t.prec_setup && t.prec_solve;
  return jv + (own ? ", its own preconditioner" : ", no preconditioner of its own");
}

std::string jacobian_description(const loader::ProblemInstance& problem) {
  const dk_problem_info& p = problem.info();
  const bool sparse_values = problem.handle().vtbl->jacobian_sparse != nullptr;
  if ((p.flags & DK_PROBLEM_SPARSE_JACOBIAN) && sparse_values) return "analytic, sparse";
  if (p.flags & DK_PROBLEM_ANALYTIC_JACOBIAN) return "analytic, dense";
  if (!(p.flags & DK_PROBLEM_SPARSE_JACOBIAN)) return "finite differences (one evaluation per column)";
  const ColumnColouring c = colour_columns(p.n, p.jac_pattern.col_ptr, p.jac_pattern.row_idx);
  return "finite differences in its sparsity pattern (" + std::to_string(p.jac_pattern.nnz) + " entries): " +
         std::to_string(c.colours) + " evaluations per Jacobian, not " + std::to_string(p.n);
}

void print_problem(const loader::Plugin& plugin, const std::map<std::string, std::string>& params) {
  loader::ProblemInstance problem(plugin, params);
  const dk_problem_info& p = problem.info();
  std::cout << "problem     " << p.name << " " << plugin.manifest.version << "\n"
            << "            " << p.title << "\n"
            << "file        " << plugin.file.string() << "\n"
            << "size        n = " << p.n << "\n"
            << "span        [" << p.t0 << ", " << p.tend << "]\n"
            << "form        "
            << (p.form == DK_FORM_RESIDUAL_ONLY ? "residual only, F(t, y, y') = 0" : "M y' = f(t, y)") << "\n";
  if (p.form == DK_FORM_MASS_MATRIX)
  {
    std::cout << "mass matrix " << mass_kind_name(static_cast<MassKind>(p.mass_kind));
    if (p.mass_kind != DK_MASS_IDENTITY && DK_HAS_FIELD(&p, dk_problem_info, constraints))
      std::cout << (p.mass_storage == DK_MASS_STORAGE_DIAGONAL ? ", stored as its diagonal (n values)"
                    : p.mass_storage == DK_MASS_STORAGE_SPARSE
                        ? ", stored sparse (" + std::to_string(p.mass_pattern.nnz) + " entries)"
                        : std::string(", stored dense (n x n)"));
    std::cout << "\n";
  }
  std::cout << "DAE index   " << max_dae_index(p) << "\n"
            << "Jacobian    "
            << jacobian_description(problem)
            << "\n"
            << "Krylov      " << krylov_description(problem) << "\n"
            << "initial     " << ((p.flags & DK_PROBLEM_CONSISTENT_Y0) ? "consistent by construction" : "as given")
            << "\n";
  if (DK_HAS_FIELD(&p, dk_problem_info, constraints)) {
    const bool time_events = p.flags & DK_PROBLEM_TIME_EVENTS;
    if (p.nroots > 0 || time_events) {
      std::cout << "events      ";
      if (p.nroots > 0) std::cout << p.nroots << " root function" << (p.nroots == 1 ? "" : "s");
      if (p.nroots > 0 && time_events) std::cout << ", ";
      if (time_events) std::cout << "time events";
      std::cout << "\n";
      for (std::size_t i = 0; i < p.nroots; ++i) {
        const int d = p.root_direction ? p.root_direction[i] : 0;
        const std::string name = api::root_name(p, i);
        std::cout << "  root " << i << (name.empty() ? "" : " (" + name + ")")
                  << ": " << (d > 0 ? "rising" : d < 0 ? "falling" : "both directions")
                  << (p.root_terminal && p.root_terminal[i] ? ", terminal" : "");
        if (DK_HAS_FIELD(&p, dk_problem_info, root_time_scale) && p.root_time_scale && p.root_time_scale[i] > 0.0)
          std::cout << ", time scale " << p.root_time_scale[i];
        std::cout << "\n";
      }
    }
    const std::size_t constrained = constrained_components(p);
    if (constrained > 0)
      std::cout << "constraints " << constrained << " component" << (constrained == 1 ? "" : "s")
                << " with sign constraints (y >= 0 and the like)\n";
  }
  if (p.nparams) {
    std::cout << "parameters (--param key=value):\n";
    for (std::size_t i = 0; i < p.nparams; ++i)
      std::cout << "  " << std::left << std::setw(10) << p.params[i].name << " = " << std::setw(8)
                << p.param_values[i] << " (default " << p.params[i].default_value << ") " << p.params[i].help
                << "\n";
  }
  if (const std::size_t np = problem.parameter_count(); np > 0) {
    std::cout << "real parameters (--param name=value; what sensitivities are taken with respect to):\n";
    for (std::size_t i = 0; i < np; ++i) {
      std::cout << "  " << std::left << std::setw(10) << problem.parameter_name(i) << " nominal "
                << problem.nominal_parameter(i);
      if (p.p_scale && p.p_scale[i] > 0) std::cout << ", scale " << p.p_scale[i];
      std::cout << "\n";
    }
  }
  if (p.atol_scale) {
    std::cout << "tolerances  suggested atol_i = scale_i * rtol, scales:";
    for (std::size_t i = 0; i < p.n && i < 8; ++i) std::cout << " " << p.atol_scale[i];
    std::cout << (p.n > 8 ? " ..." : "") << "\n";
  }
  if (p.ntstops) {  // the first few (an FMU's input file may give one per row)
    std::cout << "breakpoints";
    for (std::size_t i = 0; i < p.ntstops && i < 8; ++i) std::cout << " " << p.tstops[i];
    if (p.ntstops > 8) std::cout << " ... (" << p.ntstops << " in all)";
    std::cout << "\n";
  }
  const bool stored_reference = problem.has_stored_reference();
  if (stored_reference) {
    std::cout << "reference   at t = " << p.reference_t << ": " << p.reference_source << "\n";
    // What lets wpd score at any --tend and its l2-steps, L2 ... without a reference solver.
    if (problem.has_reference_at()) std::cout << "            exact at any t (an exact solution)\n";
    std::size_t scored = 0;
    for (std::size_t i = 0; i < p.n; ++i) scored += p.scored[i] != DK_SCORED_NO;
    std::cout << "scored      " << scored << " of " << p.n << " components enter scd\n";
  } else {
    std::cout << "reference   none for these parameters\n";
  }
  std::cout << "components:\n   #  " << std::left << std::setw(12) << "name" << " kind          index"
            << (stored_reference ? "  scored" : "") << "\n";
  for (std::size_t i = 0; i < p.n; ++i) {
    std::cout << "  " << std::right << std::setw(3) << i + 1 << "  " << std::left << std::setw(12)
              << component_name(p, i) << " "
              << std::setw(13) << (p.differential[i] ? "differential" : "algebraic") << " " << int(p.index[i]);
    if (stored_reference)
      std::cout << "      " << (p.scored[i] == DK_SCORED_ABSOLUTE ? "absolute" : p.scored[i] ? "yes" : "no");
    std::cout << "\n";
  }
  if (const std::size_t outputs = problem.output_count(); outputs > 0) {
    // Every name, wrapped: a user looks here for what --output-vars may name.
    std::cout << "outputs     " << outputs << " variable" << (outputs == 1 ? "" : "s")
              << " besides the components (daekit run --output-vars NAME,...):\n ";
    std::size_t width = 1;
    for (std::size_t k = 0; k < outputs; ++k) {
      const std::string name = problem.output_name(k) + (k + 1 < outputs ? "," : "");
      if (width + 1 + name.size() > 96 && width > 1) {
        std::cout << "\n ";
        width = 1;
      }
      std::cout << " " << name;
      width += 1 + name.size();
    }
    std::cout << "\n";
  }
}

}  // namespace

int command_info(int argc, char** argv) {
  PluginOptions plugins;
  std::string name;
  std::vector<std::string> params;
  double timeout = 60;
  po::options_description desc("daekit info options");
  desc.add_options()("help,h", "show this help")("name", po::value(&name), "solver or problem name")(
      "param", po::value(&params)->composing(), "problem parameter key=value (repeatable)")(
      "timeout", po::value(&timeout),
      "seconds the plugin may take to load and describe itself (default 60); then it is killed");
  add_plugin_options(desc, plugins);
  po::positional_options_description pos;
  pos.add("name", 1);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, &pos, vm, "usage: daekit info NAME [--param key=value]")) return 0;
  if (name.empty()) throw UsageError("which plugin? usage: daekit info NAME");
  if (!(timeout > 0) || !std::isfinite(timeout)) throw UsageError("--timeout must be a positive number of seconds");
  loader::Registry registry = discover_plugins(plugins);
  const loader::Plugin* p = nullptr;
  try {
    p = registry.find(name);
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
  if (!p) {
    std::string msg = "unknown plugin '" + name + "'";
    for (dk_kind k : {DK_KIND_SOLVER, DK_KIND_PROBLEM}) {
      std::string valid;
      for (const auto& n : registry.names(k)) valid += (valid.empty() ? "" : ", ") + n;
      msg += std::string("; ") + loader::kind_name(k) + "s: " + (valid.empty() ? "(none)" : valid);
    }
    throw UsageError(msg);
  }
  const auto problem_params = parse_key_values(params, "--param");
  // The plugin's code runs in a child: one that crashes when loaded is reported, not taken.
  const ChildOutcome end = run_in_child(
      [&] {
        return std::to_string(exit_code_of("info", [&] {
          if (p->manifest.kind == DK_KIND_SOLVER)
            print_solver(*p);
          else
            print_problem(*p, problem_params);
          return 0;
        }));
      },
      timeout);
  if (end.finished() && end.exit_code == 0 && !end.payload.empty()) return std::stoi(end.payload);
  throw UsageError(std::string(loader::kind_name(p->manifest.kind)) + " '" + name + "' (" + p->file.string() + ") " +
                   end.describe(timeout) + " while it was loaded and described");
}

}  // namespace daekit::host
