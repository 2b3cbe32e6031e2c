// The library's front door: find plugins, make a problem (from a plugin, or from a
// daekit::Problem object of the calling program) and a solver, ready for daekit::solve.
//
//   daekit::Registry registry;                         // the same plugins `daekit list` shows
//   auto problem = registry.problem("fekete", {{"N", "20"}});
//   auto solver = registry.solver("radauiia");
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "daekit/api/discovery.hpp"
#include "daekit/loader/registry.hpp"
#include "daekit/sdk/problem.hpp"

namespace daekit {

using api::UsageError;           // bad names, parameters, options: the message says which
using api::UnsupportedProblem;   // the solver cannot take the problem (its capabilities)

class ProblemHandle {
 public:
  ProblemHandle() = default;
  explicit ProblemHandle(std::shared_ptr<const loader::ProblemInstance> instance);
  // A problem written in this program, solvable by every solver plugin. `reacts_to_events`:
  // whether its on_event may change the state (else events are only reported).
  static ProblemHandle from(std::unique_ptr<Problem> problem, bool reacts_to_events = true);

  bool valid() const { return instance_ != nullptr; }
  const dk_problem_info& info() const { return instance_->info(); }
  std::string name() const { return info().name; }
  const loader::ProblemInstance& instance() const { return *instance_; }

 private:
  std::shared_ptr<const loader::ProblemInstance> instance_;
};

class SolverHandle {
 public:
  SolverHandle() = default;
  explicit SolverHandle(const loader::Plugin& plugin);

  bool valid() const { return described_ != nullptr; }
  const dk_solver_info& info() const { return described_->info(); }
  std::string name() const { return info().name; }
  const loader::Plugin& plugin() const { return described_->plugin(); }
  // A fresh instance for one solve: its kept dense output belongs to that solve alone.
  std::shared_ptr<loader::SolverInstance> instantiate() const;

 private:
  std::shared_ptr<const loader::SolverInstance> described_;  // for info() without a solve
};

class Registry {
 public:
  // The default folders (next to the library and the program, DAEKIT_PLUGIN_PATH).
  Registry();
  // Also (or only, with default_folders = false) the folders and files named; a named file
  // or folder that cannot be used is a UsageError. Unusable files found in folders are
  // skipped (skipped() says which and why), with a warning on stderr when warn_skipped.
  explicit Registry(const api::PluginSearch& search, bool warn_skipped = false);

  std::vector<std::string> solvers() const { return plugins_.names(DK_KIND_SOLVER); }
  std::vector<std::string> problems() const { return plugins_.names(DK_KIND_PROBLEM); }
  const std::vector<loader::Refusal>& skipped() const { return plugins_.refusals(); }
  const loader::Registry& plugins() const { return plugins_; }

  // UsageError for an unknown name (suggesting the closest) or a bad parameter.
  ProblemHandle problem(const std::string& name, const std::map<std::string, std::string>& params = {}) const;
  SolverHandle solver(const std::string& name) const;

 private:
  loader::Registry plugins_;
};

}  // namespace daekit
