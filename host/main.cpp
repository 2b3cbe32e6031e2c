// `daekit`: run any solver plugin on any problem plugin.
#include <cstring>
#include <iostream>
#include <string>

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
    "Run 'daekit <command> --help' for a command's options.\n"
    "Plugins are found next to the executable (lib/daekit/abi1), in the folders of\n"
    "DAEKIT_PLUGIN_PATH (colon-separated), and with --plugin-path DIR / --plugin FILE.so.\n";

}  // namespace

int main(int argc, char** argv) {
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
