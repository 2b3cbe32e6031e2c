// Plugin code run in a child process (fork): a plugin that crashes, aborts or
// hangs ends the child, and the parent reports how it ended. Used by `run`
// (isolation and --timeout), every wpd point and reference run, `check` and
// `list --verbose`.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

namespace daekit::host {

// Plugins name their temporary folders TMPDIR/daekit-<what>-<pid>-<random> (the FMU
// problem's unpacked archives): what a child left there when it ended (crashed, killed
// at its time limit, gone by exit() without its cleanup) is removed by the parent that
// forked it, here, whenever a child is reaped.
void remove_temporaries_of(pid_t pid) noexcept;

struct ChildOutcome {
  enum class End { finished, crashed, timed_out };
  End end = End::finished;
  int signal = 0;     // crashed: the signal that ended it
  int exit_code = 0;  // finished: its exit code
  std::string payload;  // what the child's work returned (complete only when finished)
  bool finished() const { return end == End::finished; }
  // "crashed with signal 11 (Segmentation fault)", "killed after the timeout of 5 s", "ended with exit code 3"
  std::string describe(double timeout_s) const;
};

class ChildProcess {
 public:
  // Forks. The child runs `work`, writes what it returns to a pipe and exits with
  // code 0 (an exception escaping `work`: its message on stderr, exit code 70). The
  // child dies with its parent. timeout_s = 0: no deadline.
  ChildProcess(const std::function<std::string()>& work, double timeout_s);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;

  int fd() const { return fd_; }
  bool expired(std::chrono::steady_clock::time_point now) const { return has_deadline_ && now > deadline_; }
  // Reads what the child has written; false once it has closed its end.
  bool read_available();
  // Waits for the child (killing it first when `kill_it`), and says how it ended.
  ChildOutcome finish(bool kill_it);

 private:
  void release() noexcept;  // kills and reaps a child still running
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
  bool has_deadline_ = false;
  std::chrono::steady_clock::time_point deadline_;
};

// One child, waited for: its outcome (timed_out after timeout_s > 0).
ChildOutcome run_in_child(const std::function<std::string()>& work, double timeout_s);

}  // namespace daekit::host
