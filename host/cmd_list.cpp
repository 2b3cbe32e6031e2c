// `daekit list`: every plugin found, from the manifests in the files (no plugin code
// runs); with --verbose each plugin is also instantiated, in a child process, and its
// capabilities printed: a plugin that crashes when loaded is a FAIL line, not the end.
#include <algorithm>
#include <daekit/solve_request.hpp>
#include <daekit/status.hpp>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "child_process.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace daekit::host {
namespace {

std::string capabilities(const loader::Plugin& plugin) {
  std::ostringstream s;
  if (plugin.manifest.kind == DK_KIND_SOLVER) {
    loader::SolverInstance solver(plugin);
    const dk_solver_info& i = solver.info();
    s << "order " << i.order << ", DAE index up to " << i.max_dae_index << ", mass up to "
      << mass_kind_name(static_cast<MassKind>(i.max_mass_kind)) << (i.residual_form ? ", residual form" : "")
      << ((i.flags & DK_SOLVER_SPARSE) ? ", sparse" : "") << ", " << i.noptions << " options";
  } else {
    loader::ProblemInstance problem(plugin, {});
    const dk_problem_info& i = problem.info();
    s << "n = " << i.n << ", DAE index " << max_dae_index(i) << ", "
      << (i.form == DK_FORM_RESIDUAL_ONLY ? "residual form" : mass_kind_name(static_cast<MassKind>(i.mass_kind)))
      << (i.has_reference ? ", reference at t = " : ", no reference");
    if (i.has_reference) s << i.reference_t;
  }
  return s.str();
}

// The capabilities line, or why the plugin could not say (its code ran in a child).
std::string verbose_line(const loader::Plugin& plugin) {
  const ChildOutcome end = run_in_child([&] { return "ok " + capabilities(plugin); }, 60);
  if (end.finished() && end.exit_code == 0 && end.payload.rfind("ok ", 0) == 0) return end.payload.substr(3);
  if (end.finished())
    return plugin.manifest.kind == DK_KIND_PROBLEM
               ? "FAIL: cannot be instantiated with its default parameters (see the message above)"
               : "FAIL: cannot be instantiated (see the message above)";
  return "FAIL: its code " + end.describe(60) + " when it was loaded and instantiated";
}

}  // namespace

int command_list(int argc, char** argv) {
  PluginOptions plugins;
  po::options_description desc("daekit list options");
  desc.add_options()("help,h", "show this help")(
      "verbose,v", "also load each plugin (in a child process) and print its capabilities");
  add_plugin_options(desc, plugins);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, nullptr, vm, "usage: daekit list [--plugin-path DIR] [--plugin FILE]"))
    return 0;
  loader::Registry registry = discover_plugins(plugins, false);

  std::size_t width = 8;
  for (const auto& p : registry.plugins()) width = std::max(width, p.manifest.name.size());
  for (dk_kind kind : {DK_KIND_SOLVER, DK_KIND_PROBLEM}) {
    std::cout << (kind == DK_KIND_SOLVER ? "solvers:\n" : "problems:\n");
    std::vector<const loader::Plugin*> sorted;
    for (const auto& p : registry.plugins())
      if (p.manifest.kind == kind) sorted.push_back(&p);
    std::sort(sorted.begin(), sorted.end(),
              [](auto* a, auto* b) { return a->manifest.name < b->manifest.name; });
    if (sorted.empty()) std::cout << "  (none found)\n";
    for (const auto* p : sorted) {
      std::cout << "  " << std::left << std::setw(static_cast<int>(width)) << p->manifest.name << "  "
                << std::setw(7) << p->manifest.version << "  " << p->manifest.description << "\n"
                << "  " << std::setw(static_cast<int>(width)) << "" << "  from " << p->file.string() << "\n";
      if (vm.count("verbose"))
        std::cout << "  " << std::setw(static_cast<int>(width)) << "" << "  " << verbose_line(*p) << "\n";
    }
  }
  int code = 0;
  for (const auto& r : registry.refusals()) {
    std::cout << "skipped " << r.file.string() << ": " << r.reason << "\n";
  }
  for (const auto& c : registry.clashes()) {
    std::cerr << "daekit list: error: " << c << "\n";
    code = 2;
  }
  return code;
}

}  // namespace daekit::host
