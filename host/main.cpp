// `daekit`: run any solver plugin on any problem plugin.
#include <cstring>
#include <memory>
#include <iostream>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "farm/task_farm.hpp"
#include "farm/task_kinds.hpp"
#include "farm/transport.hpp"
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
    "  ensemble --problem P --solver S --param-grid 'k=1:10:10' --out DIR\n"
    "                       parameter studies and Monte Carlo runs, with summary statistics\n"
    "  fit --problem P --data FILE.csv --estimate p1,p2 [--solver S ...]\n"
    "                       estimate parameters from measurements (least squares, confidence intervals)\n"
    "  check PLUGIN.so      conformance checks of one plugin file, before publishing it\n"
    "\n"
    "Run 'daekit <command> --help' for a command's options. --plugin and --plugin-path\n"
    "may also come before the command.\n"
    "wpd and ensemble spread their runs over the ranks of an MPI launch\n"
    "(mpirun -n K daekit wpd ...; see docs/scale.md).\n"
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
    std::cerr << "daekit: a command is needed after " << reordered[1] << "; commands: list, info, run, wpd, ensemble, fit, check\n";
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
  namespace farm = daekit::host::farm;
  // Under an MPI launcher, wpd and ensemble run as one job over the ranks: rank 0 runs the
  // command, the others serve it until it is done. Other commands run as plain processes.
  std::unique_ptr<farm::Transport> launch;
  if (command == "wpd" || command == "ensemble") {
    const int code = daekit::host::exit_code_of(command.c_str(), [&] {
      launch = farm::Transport::from_environment(&argc, &argv);
      return 0;
    });
    if (code != 0) return code;
    if (launch && launch->rank() != 0) return farm::worker_main(*launch, farm::all_task_kinds());
    farm::current_launch() = launch.get();
    // From now on, whatever rank 0 does (a reference solve may take minutes), the workers
    // hear from it; the command announces its own --silence-limit once it has read it.
    if (launch) farm::announce_coordinator(*launch, farm::default_silence_limit_s);
  }
  // `daekit run` under a launcher of several processes solves one problem spread over the
  // ranks (a problem with a distributed form, a solver that takes it: cmd_run.cpp says
  // which), every rank in its own process, rank 0 reporting.
  std::unique_ptr<farm::Transport> ranks;
  if (command == "run" && farm::launch_shape().size > 1) {
    const int code = daekit::host::exit_code_of(command.c_str(), [&] {
      ranks = farm::Transport::from_environment(&argc, &argv);
      return 0;
    });
    if (code != 0) return code;
    farm::current_launch() = ranks.get();
  }
  // One problem in one process: under a launcher of several processes each would solve it
  // again. Refused (rank 0 says why).
  if (command == "fit" || command == "check") {
    if (const farm::LaunchShape shape = farm::launch_shape(); shape.size > 1) {
      if (shape.rank == 0)
        std::cerr << "daekit " << command << ": started as " << shape.size
                  << " processes by an MPI launcher, each would solve the same problem again; run it as one "
                     "process (without mpirun or srun), or spread many runs with daekit wpd or daekit ensemble "
                     "(docs/scale.md)\n";
      return 2;
    }
  }
  struct StopWorkers {
    farm::Transport* t;
    ~StopWorkers() {
      if (t) farm::stop_workers(*t);
    }
  } stop_workers{launch.get()};
  const int code = daekit::host::exit_code_of(command.c_str(), [&] {
    if (command == "list") return daekit::host::command_list(argc - 1, argv + 1);
    if (command == "info") return daekit::host::command_info(argc - 1, argv + 1);
    if (command == "run") return daekit::host::command_run(argc - 1, argv + 1);
    if (command == "wpd") return daekit::host::command_wpd(argc - 1, argv + 1);
    if (command == "check") return daekit::host::command_check(argc - 1, argv + 1);
    if (command == "ensemble") return daekit::host::command_ensemble(argc - 1, argv + 1);
    if (command == "fit") return daekit::host::command_fit(argc - 1, argv + 1);
    std::cerr << "daekit: unknown command '" << command
              << "'; commands: list, info, run, wpd, ensemble, fit, check (see daekit --help)\n";
    return 2;
  });
  if (launch) launch->set_exit_code(code);
  if (ranks) ranks->set_exit_code(code);
  return code;
}
