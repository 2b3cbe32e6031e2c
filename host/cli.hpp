// Pieces every `daekit` command shares: where plugins are found, key=value
// parsing, and the error type that ends a command with exit code 2.
#pragma once

#include <boost/program_options.hpp>
#include <daekit/loader/registry.hpp>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace daekit::host {

namespace po = boost::program_options;

// Bad usage or a plugin that cannot be used: one line on stderr, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The problem lies beyond the solver's capabilities (its status: unsupported_problem).
class UnsupportedProblem : public UsageError {
 public:
  using UsageError::UsageError;
};

struct PluginOptions {
  std::vector<std::string> paths;  // --plugin-path
  std::vector<std::string> files;  // --plugin
};

void add_plugin_options(po::options_description& desc, PluginOptions& opts);

// Build tree or install prefix (next to the executable), DAEKIT_PLUGIN_PATH, --plugin-path, --plugin.
// Refusals of explicitly named files and name clashes are UsageErrors.
loader::Registry discover_plugins(const PluginOptions& opts, bool warn_skipped = true);

// Up to three names nearest to `name` (edit distance within a third of its length), nearest first.
std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates);

// The plugin of that kind, or a UsageError that suggests the closest names and lists all.
const loader::Plugin& require_plugin(const loader::Registry& registry, const std::string& name, dk_kind kind);

// "k=v" strings into a map; a UsageError names the bad one.
std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& items, const char* option);

// Parse argv of a command; prints help and returns false when --help was asked.
bool parse_command_line(int argc, char** argv, const po::options_description& desc,
                        const po::positional_options_description* positional, po::variables_map& vm,
                        const char* usage);

std::vector<std::string> default_plugin_dirs();

// Runs a command's body and turns what it throws into the command's exit code: a
// UsageError or any other exception is one line on stderr ("daekit CMD: why") and 2.
int exit_code_of(const char* command, const std::function<int()>& body);

// The problem's name for component i (0-based), or y<i+1>.
std::string component_name(const dk_problem_info& info, std::size_t i);

}  // namespace daekit::host
