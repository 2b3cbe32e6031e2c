#include "daekit/api/discovery.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "daekit/sdk/closest_names.hpp"
#include "daekit/sdk/problem.hpp"

#ifndef DAEKIT_INSTALL_PLUGIN_DIR
#define DAEKIT_INSTALL_PLUGIN_DIR ""
#endif

namespace daekit::api {

std::vector<std::string> default_plugin_dirs() {
  std::vector<std::string> dirs;
  // The build tree and an installed tree share the layout <prefix>/bin/daekit, <prefix>/lib/daekit/abi<N>.
  const std::string abi_dir = "abi" + std::to_string(DK_ABI_MAJOR);
  // This library lives in <prefix>/lib, the program in <prefix>/bin (or anywhere, for a
  // program using the library: then only the library's place counts).
  boost::system::error_code ec;
  const auto library = boost::dll::this_line_location(ec);
  if (!ec) dirs.push_back((library.parent_path() / "daekit" / abi_dir).string());
  const auto exe = boost::dll::program_location(ec);
  if (!ec) dirs.push_back((exe.parent_path().parent_path() / "lib" / "daekit" / abi_dir).string());
  const std::string installed = DAEKIT_INSTALL_PLUGIN_DIR;
  if (!installed.empty()) dirs.push_back(installed);
  if (const char* env = std::getenv("DAEKIT_PLUGIN_PATH")) {
    std::stringstream in(env);
    std::string item;
    while (std::getline(in, item, ':'))
      if (!item.empty()) dirs.push_back(item);
  }
  return dirs;
}

loader::Registry discover_plugins(const PluginSearch& opts, bool warn_skipped) {
  loader::Registry registry;
  const char* env = opts.default_folders ? std::getenv("DAEKIT_PLUGIN_PATH") : nullptr;
  if (env) {
    // A folder the user named that is not there is worth a word (a typo hides plugins).
    std::stringstream in(env);
    std::string item;
    std::error_code ec;
    while (std::getline(in, item, ':'))
      if (!item.empty() && !std::filesystem::is_directory(item, ec))
        std::cerr << "daekit: warning: DAEKIT_PLUGIN_PATH names " << item << ", which is not a folder\n";
  }
  if (opts.default_folders)
    for (const auto& dir : default_plugin_dirs()) registry.add_directory(dir);
  for (const auto& dir : opts.paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw UsageError("--plugin-path " + dir + ": no such folder");
    registry.add_directory(dir);
  }
  for (const auto& file : opts.files) registry.add_file(file);
  if (!registry.explicit_refusals().empty()) {
    const auto& r = registry.explicit_refusals().front();
    throw UsageError("cannot use plugin file " + r.file.string() + ": " + r.reason);
  }
  if (warn_skipped)
    for (const auto& r : registry.refusals())
      std::cerr << "daekit: warning: skipped " << r.file.string() << ": " << r.reason << "\n";
  return registry;
}

std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates) {
  return daekit::closest_names(name, candidates);
}

const loader::Plugin& require_plugin(const loader::Registry& registry, const std::string& name, dk_kind kind) {
  const loader::Plugin* p = nullptr;
  try {
    p = registry.find(name);
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
  if (p && p->manifest.kind == kind) return *p;
  std::string valid;
  const auto names = registry.names(kind);
  for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + n;
  std::string msg = std::string("unknown ") + loader::kind_name(kind) + " '" + name + "'";
  if (p) msg += " ('" + name + "' is a " + loader::kind_name(p->manifest.kind) + ")";
  const auto close = closest_names(name, names);
  if (!p && !close.empty()) {
    msg += "; did you mean ";
    for (std::size_t i = 0; i < close.size(); ++i) msg += (i ? " or '" : "'") + close[i] + "'";
    msg += "?";
  }
  msg += valid.empty() ? std::string("; no ") + loader::kind_name(kind) + " plugins were found (see daekit list)"
                       : std::string("; available: ") + valid;
  throw UsageError(msg);
}

std::string component_name(const dk_problem_info& info, std::size_t i) {
  return info.component_names ? std::string(info.component_names[i]) : numbered("y", i + 1);
}

std::string root_name(const dk_problem_info& info, std::size_t i) {
  if (!DK_HAS_FIELD(&info, dk_problem_info, root_names) || !info.root_names || !info.root_names[i]) return "";
  return info.root_names[i];
}

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace daekit::api
