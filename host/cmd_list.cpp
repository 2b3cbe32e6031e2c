#include <algorithm>
#include <iomanip>
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"

namespace daekit::host {

int command_list(int argc, char** argv) {
  PluginOptions plugins;
  po::options_description desc("daekit list options");
  desc.add_options()("help,h", "show this help");
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
    for (const auto* p : sorted)
      std::cout << "  " << std::left << std::setw(static_cast<int>(width)) << p->manifest.name << "  "
                << std::setw(7) << p->manifest.version << "  " << p->manifest.description << "\n"
                << "  " << std::setw(static_cast<int>(width)) << "" << "  from " << p->file.string() << "\n";
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
