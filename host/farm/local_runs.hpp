// The runs one process has in its own children (rank 0's share, a worker's runs, or all of
// them without MPI): started with a time budget, collected as they end or run out of time.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "../child_process.hpp"

namespace daekit::host::farm {

class LocalRuns {
 public:
  // Forks a child that runs `work`; `index` names the run when it is collected.
  void start(std::size_t index, const std::function<std::string()>& work, double budget_s);
  std::size_t size() const { return runs_.size(); }
  bool empty() const { return runs_.empty(); }
  // Waits up to wait_ms for one of them to end (sleeps that long when there are none), then
  // takes every run that ended or outlived its budget (killed), with how it ended.
  std::vector<std::pair<std::size_t, ChildOutcome>> collect(int wait_ms);

 private:
  struct Run {
    ChildProcess process;
    std::size_t index;
  };
  std::vector<Run> runs_;  // children still running die with it
};

}  // namespace daekit::host::farm
