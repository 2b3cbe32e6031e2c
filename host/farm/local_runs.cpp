#include "local_runs.hpp"

#include <poll.h>

#include <chrono>

namespace daekit::host::farm {

void LocalRuns::start(std::size_t index, const std::function<std::string()>& work, double budget_s) {
  runs_.push_back(Run{ChildProcess(work, budget_s), index});
}

std::vector<std::pair<std::size_t, ChildOutcome>> LocalRuns::collect(int wait_ms) {
  std::vector<pollfd> fds;
  for (const auto& r : runs_) fds.push_back({r.process.fd(), POLLIN, 0});
  poll(fds.data(), fds.size(), wait_ms);
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::pair<std::size_t, ChildOutcome>> ended;
  std::vector<Run> still_running;
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    Run& r = runs_[k];
    const bool closed = (fds[k].revents & (POLLIN | POLLHUP)) && !r.process.read_available();
    const bool timed_out = !closed && r.process.expired(now);
    if (closed || timed_out)
      ended.emplace_back(r.index, r.process.finish(timed_out));
    else
      still_running.push_back(std::move(r));
  }
  runs_ = std::move(still_running);
  return ended;
}

}  // namespace daekit::host::farm
