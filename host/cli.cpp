#include "cli.hpp"

#include "farm/task_farm.hpp"

#include <cmath>

#include <daekit/sdk/problem.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace daekit::host {

void add_plugin_options(po::options_description& desc, PluginOptions& opts) {
  desc.add_options()("plugin-path", po::value(&opts.paths)->composing(),
                     "also look for plugins in this folder (repeatable)")(
      "plugin", po::value(&opts.files)->composing(), "load this plugin file (repeatable)");
}

std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& items, const char* option) {
  std::map<std::string, std::string> out;
  for (const auto& item : items) {
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(std::string(option) + " expects key=value, got '" + item + "'");
    const std::string key = item.substr(0, eq);
    if (out.count(key))
      throw UsageError(std::string(option) + " gives '" + key + "' twice ('" + out[key] + "' and '" +
                       item.substr(eq + 1) + "'); give it once");
    out[key] = item.substr(eq + 1);
  }
  return out;
}

bool parse_command_line(int argc, char** argv, const po::options_description& desc,
                        const po::positional_options_description* positional, po::variables_map& vm,
                        const char* usage) {
  try {
    // Without positional arguments of its own a command refuses stray words
    // (`daekit run ... 1e-12` must not run with the default tolerance).
    static const po::positional_options_description none;
    auto parser = po::command_line_parser(argc, argv).options(desc);
    parser.positional(positional ? *positional : none);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  return true;
}

std::vector<std::string> split_variable_names(const std::string& list, const char* option) {
  std::vector<std::string> names;
  std::string current;
  int depth = 0;
  auto finish = [&] {
    const auto first = current.find_first_not_of(" \t"), last = current.find_last_not_of(" \t");
    if (first == std::string::npos) throw UsageError(std::string("--") + option + " has an empty name in '" + list + "'");
    names.push_back(current.substr(first, last - first + 1));
    current.clear();
  };
  for (char c : list) {
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && depth > 0) --depth;
    if (c == ',' && depth == 0)
      finish();
    else
      current += c;
  }
  if (!list.empty()) finish();
  return names;
}

void add_farm_options(po::options_description& desc, FarmSettings& s, const char* what) {
  const std::string w = what;
  desc.add_options()("jobs,j", po::value(&s.jobs),
                     (w + " run at once, on each MPI rank (default 1; parallel timings are not comparable)").c_str())(
      "coordinator-jobs", po::value(&s.coordinator_jobs),
      ("under MPI: " + w + " rank 0 runs itself besides handing them out (default: --jobs; 0: it only hands them out)")
          .c_str())(
      "silence-limit", po::value(&s.silence_limit_s),
      ("under MPI: seconds a rank may stay silent before the others give it up (a worker's runs are recorded "
       "as lost; a worker that lost rank 0 stops) (default " +
       std::to_string(static_cast<int>(farm::default_silence_limit_s)) + ")")
          .c_str());
}

void check_farm_options(FarmSettings& s, const po::variables_map& vm) {
  if (s.jobs < 1) throw UsageError("--jobs must be at least 1");
  if (vm.count("coordinator-jobs") && s.coordinator_jobs < 0) throw UsageError("--coordinator-jobs must be 0 or more");
  if (!vm.count("coordinator-jobs")) s.coordinator_jobs = s.jobs;
  if (!vm.count("silence-limit")) s.silence_limit_s = farm::default_silence_limit_s;
  if (!(s.silence_limit_s >= 1) || !std::isfinite(s.silence_limit_s))
    throw UsageError("--silence-limit must be a finite number of seconds >= 1");
}

int exit_code_of(const char* command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::cerr << "daekit " << command << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace daekit::host
