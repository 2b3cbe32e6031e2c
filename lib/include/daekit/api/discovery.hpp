// Finding plugins, as the `daekit` command and every program using the library do:
// next to the library (or the program), in the install prefix, in DAEKIT_PLUGIN_PATH,
// and in folders and files the caller names. Also the errors every front end shares.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "daekit/loader/registry.hpp"

namespace daekit::api {

// Bad input or a plugin that cannot be used (the command's exit code 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The problem lies beyond the solver's capabilities (status unsupported_problem).
class UnsupportedProblem : public UsageError {
 public:
  using UsageError::UsageError;
};

struct PluginSearch {
  std::vector<std::string> paths;  // further folders (the command's --plugin-path)
  std::vector<std::string> files;  // further plugin files (--plugin)
  bool default_folders = true;     // the folders of default_plugin_dirs()
};

// Next to this library and to the program (<prefix>/lib/daekit/abi<N>, build and install
// trees alike), the configured install folder, then DAEKIT_PLUGIN_PATH's folders.
std::vector<std::string> default_plugin_dirs();

// Refusals of explicitly named files and folders that do not exist are UsageErrors;
// with warn_skipped, unusable files in searched folders are a warning each on stderr.
loader::Registry discover_plugins(const PluginSearch& search, bool warn_skipped = true);

// Up to three names nearest to `name` (edit distance within a third of its length), nearest first.
std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates);

// The plugin of that kind, or a UsageError that suggests the closest names and lists all.
const loader::Plugin& require_plugin(const loader::Registry& registry, const std::string& name, dk_kind kind);

// The problem's name for component i (0-based), or y<i+1>.
std::string component_name(const dk_problem_info& info, std::size_t i);
// The name of root function i (ABI 1.2), or "" when the problem gives none.
std::string root_name(const dk_problem_info& info, std::size_t i);

// "a,b,,c" into {a, b, c}: the items between separators, empty ones dropped.
std::vector<std::string> split_list(const std::string& s, char sep);

}  // namespace daekit::api
