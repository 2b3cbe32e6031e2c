// Pieces every `daekit` command shares: where plugins are found, key=value
// parsing, and the error type that ends a command with exit code 2.
#pragma once

#include <boost/program_options.hpp>
#include <daekit/api/discovery.hpp>
#include <daekit/loader/registry.hpp>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace daekit::host {

namespace po = boost::program_options;

// Discovery, the shared errors and the run settings are the library's (lib/src/api); the
// commands use them by their short names.
using namespace daekit::api;
using PluginOptions = api::PluginSearch;

void add_plugin_options(po::options_description& desc, PluginOptions& opts);

// "a, der(b), x[1,2]" into {a, der(b), x[1,2]}: commas inside brackets belong to a name
// (Modelica's scalarised arrays); an empty name is a UsageError naming --option.
std::vector<std::string> split_variable_names(const std::string& list, const char* option);

// How the commands that spread runs over MPI ranks (wpd, ensemble) are told to: --jobs,
// --coordinator-jobs and --silence-limit, checked alike (farm/task_farm.hpp uses them).
struct FarmSettings {
  int jobs = 1;
  int coordinator_jobs = -1;  // -1 until checked: then --jobs unless given
  double silence_limit_s = 0;  // 0 until checked: then the farm's default unless given
};
// what: "points" or "members", for the help text.
void add_farm_options(po::options_description& desc, FarmSettings& s, const char* what);
// UsageError for a bad value; fills in coordinator_jobs and silence_limit_s.
void check_farm_options(FarmSettings& s, const po::variables_map& vm);

// "k=v" strings into a map; a UsageError names the bad one.
std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& items, const char* option);

// Parse argv of a command; prints help and returns false when --help was asked.
bool parse_command_line(int argc, char** argv, const po::options_description& desc,
                        const po::positional_options_description* positional, po::variables_map& vm,
                        const char* usage);

// Runs a command's body and turns what it throws into the command's exit code: a
// UsageError or any other exception is one line on stderr ("daekit CMD: why") and 2.
int exit_code_of(const char* command, const std::function<int()>& body);

}  // namespace daekit::host
