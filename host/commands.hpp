// The `daekit` commands. Each parses its own options from argv (argv[0] is the
// command name) and returns the process exit code.
#pragma once

namespace daekit::host {

int command_list(int argc, char** argv);
int command_info(int argc, char** argv);
int command_run(int argc, char** argv);
int command_wpd(int argc, char** argv);
int command_check(int argc, char** argv);
int command_ensemble(int argc, char** argv);
int command_fit(int argc, char** argv);

}  // namespace daekit::host
