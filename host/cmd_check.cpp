// `daekit check PLUGIN.so`: load one plugin file in isolation and run the
// conformance checks on everything it exports, each plugin in a child process so
// that a plugin that crashes or hangs is a FAIL line, not the end of the command.
#include <cmath>
#include <iostream>

#include "child_process.hpp"

#include "check/checks.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace daekit::host {

int command_check(int argc, char** argv) {
  PluginOptions plugins;
  std::string file;
  std::vector<std::string> params;
  double timeout = 600;
  po::options_description desc("daekit check options");
  desc.add_options()("help,h", "show this help")("file", po::value(&file), "the plugin file to check")(
      "param", po::value(&params)->composing(), "problem parameter key=value for the problems checked (repeatable)")(
      "timeout", po::value(&timeout), "seconds the checks of one plugin may take (default 600, 0 for none)");
  add_plugin_options(desc, plugins);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse_command_line(argc, argv, desc, &pos, vm, "usage: daekit check PLUGIN.so [--param key=value ...]")) return 0;
  if (file.empty()) throw UsageError("which plugin file? usage: daekit check PLUGIN.so");
  if (!(timeout >= 0) || !std::isfinite(timeout)) throw UsageError("--timeout must be a number of seconds >= 0");

  std::vector<loader::Plugin> found;
  try {
    found = loader::read_plugin_file(file);
  } catch (const loader::LoadError& e) {
    std::cout << file << "\n  [FAIL] manifest and ABI: " << e.what() << "\n  => FAILED\n";
    return 1;
  }
  // Standard problems for solver checks come from the usual plugin folders.
  loader::Registry registry = discover_plugins(plugins, false);
  const auto problem_params = parse_key_values(params, "--param");
  bool all = true;
  for (const auto& plugin : found) {
    const ChildOutcome end = run_in_child(
        [&] {
          const check::Report report = plugin.manifest.kind == DK_KIND_PROBLEM
                                           ? check::check_problem(plugin, problem_params)
                                           : check::check_solver(plugin, registry);
          check::print(std::cout, report);
          return std::string(report.passed() ? "passed" : "failed");
        },
        timeout);
    if (end.finished() && end.exit_code == 0) {
      all = all && end.payload == "passed";
      continue;
    }
    std::cout << loader::kind_name(plugin.manifest.kind) << " '" << plugin.manifest.name << "' (" << plugin.file.string()
              << ")\n  [FAIL] the checks did not complete: the plugin's code " << end.describe(timeout) << "\n  => FAILED\n";
    all = false;
  }
  std::cout << (all ? "all checks passed" : "some checks FAILED") << "\n";
  return all ? 0 : 1;
}

}  // namespace daekit::host
