// `daekit`: run any solver plugin on any problem plugin.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "version.hpp"

namespace {

const char* overview =
    "daekit - stiff ODE and DAE solvers and problems as plugins\n"
    "\n"
    "usage: daekit <command> [options]\n"
    "\n"
    "commands:\n"
    "  list                 every solver and problem plugin found, with its file\n"
    "  info NAME            a solver's options and capabilities, or a problem's components\n"
    "  run --problem P --solver S [options]\n"
    "                       solve P with S and report statistics and accuracy\n"
    "  wpd --problem P --solvers a,b --tols 1e-4:1e-10 --out DIR\n"
    "                       work-precision diagrams: CSV, JSON, SVG and PNG, and a summary\n"
    "  check PLUGIN.so      conformance checks of one plugin file, before publishing it\n"
    "\n"
    "Run 'daekit <command> --help' for a command's options. --plugin and --plugin-path\n"
    "may also come before the command.\n"
    "Plugins are found next to the executable (lib/daekit/abi1), in the folders of\n"
    "DAEKIT_PLUGIN_PATH (colon-separated), and with --plugin-path DIR / --plugin FILE.so.\n";

// Options every command takes may also come before the command word
// (`daekit --plugin x.so list`): they are moved behind it, where the command reads them.
// Returns the arguments in that order, or an empty list when a global option lacks its value.
std::vector<char*> command_first(int argc, char** argv) {
  std::vector<char*> global, rest;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool with_value = arg == "--plugin" || arg == "--plugin-path";
    const bool joined = arg.rfind("--plugin=", 0) == 0 || arg.rfind("--plugin-path=", 0) == 0;
    if (!with_value && !joined) break;
    global.push_back(argv[i]);
    if (with_value) {
      if (i + 1 >= argc) return {};
      global.push_back(argv[++i]);
    }
  }
  std::vector<char*> out{argv[0]};
  if (i < argc) out.push_back(argv[i++]);
  out.insert(out.end(), global.begin(), global.end());
  for (; i < argc; ++i) out.push_back(argv[i]);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> reordered = command_first(argc, argv);
  if (reordered.empty()) {
    std::cerr << "daekit: " << argv[argc - 1] << " needs a value (a plugin file or folder)\n";
    return 2;
  }
  if (reordered.size() > 1 && std::strncmp(reordered[1], "--plugin", 8) == 0) {
    std::cerr << "daekit: a command is needed after " << reordered[1] << "; commands: list, info, run, wpd, check\n";
    return 2;
  }
  argc = static_cast<int>(reordered.size());
  reordered.push_back(nullptr);  // argv[argc] is NULL, as the C runtime promises
  argv = reordered.data();
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::cout << overview;
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "daekit " << DAEKIT_VERSION << " (plugin ABI " << DK_ABI_MAJOR << "." << DK_ABI_MINOR << ")\n";
    if (argc > 2 && (!std::strcmp(argv[2], "--verbose") || !std::strcmp(argv[2], "-v")))
      daekit::host::print(daekit::host::build_info(), std::cout);
    return 0;
  }
  const std::string command = argv[1];
  return daekit::host::exit_code_of(command.c_str(), [&] {
    if (command == "list") return daekit::host::command_list(argc - 1, argv + 1);
    if (command == "info") return daekit::host::command_info(argc - 1, argv + 1);
    if (command == "run") return daekit::host::command_run(argc - 1, argv + 1);
    if (command == "wpd") return daekit::host::command_wpd(argc - 1, argv + 1);
    if (command == "check") return daekit::host::command_check(argc - 1, argv + 1);
    std::cerr << "daekit: unknown command '" << command << "'; commands: list, info, run, wpd, check (see daekit --help)\n";
    return 2;
  });
}
