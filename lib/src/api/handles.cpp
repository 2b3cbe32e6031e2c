#include "daekit/api/handles.hpp"

#include "daekit/sdk/export_problem.hpp"

namespace daekit {

ProblemHandle::ProblemHandle(std::shared_ptr<const loader::ProblemInstance> instance) : instance_(std::move(instance)) {}

ProblemHandle ProblemHandle::from(std::unique_ptr<Problem> problem, bool reacts_to_events) {
  if (!problem) throw UsageError("no problem given");
  const std::string name = problem->info().name.empty() ? "(unnamed)" : problem->info().name;
  std::unique_ptr<sdk::ProblemAdapter> adapter;
  try {
    // The SDK's own wrapper: the in-process problem crosses the same C table as a plugin's.
    adapter = std::make_unique<sdk::ProblemAdapter>(std::move(problem), std::vector<ParamDesc>{}, Params{});
  } catch (const std::exception& e) {
    throw UsageError("problem '" + name + "': " + e.what());
  }
  adapter->table = sdk::problem_vtbl(adapter->info());
  if (!reacts_to_events) adapter->table.on_event = nullptr;
  dk_problem handle{&adapter->table, adapter.get()};
  adapter.release();  // owned by the instance from here: its destroy deletes the adapter
  try {
    return ProblemHandle(std::make_shared<const loader::ProblemInstance>(handle, name));
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
}

SolverHandle::SolverHandle(const loader::Plugin& plugin) {
  try {
    described_ = std::make_shared<const loader::SolverInstance>(plugin);
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
}

std::shared_ptr<loader::SolverInstance> SolverHandle::instantiate() const {
  if (!described_) throw UsageError("no solver given");
  try {
    return std::make_shared<loader::SolverInstance>(described_->plugin());
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
}

Registry::Registry() : Registry(api::PluginSearch{}) {}

Registry::Registry(const api::PluginSearch& search, bool warn_skipped)
    : plugins_(api::discover_plugins(search, warn_skipped)) {}

ProblemHandle Registry::problem(const std::string& name, const std::map<std::string, std::string>& params) const {
  const loader::Plugin& plugin = api::require_plugin(plugins_, name, DK_KIND_PROBLEM);
  try {
    return ProblemHandle(std::make_shared<const loader::ProblemInstance>(plugin, params));
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
}

SolverHandle Registry::solver(const std::string& name) const {
  return SolverHandle(api::require_plugin(plugins_, name, DK_KIND_SOLVER));
}

}  // namespace daekit
