#include "child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <daekit/process_role.hpp>

namespace daekit::host {

namespace {
constexpr int work_threw_exit_code = 70;  // EX_SOFTWARE

void write_all(int fd, const std::string& text) {
  std::size_t off = 0;
  while (off < text.size()) {
    const ssize_t w = ::write(fd, text.data() + off, text.size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    off += static_cast<std::size_t>(w);
  }
}
}  // namespace

std::string ChildOutcome::describe(double timeout_s) const {
  std::ostringstream s;
  switch (end) {
    case End::crashed:
      s << "crashed with signal " << signal << " (" << strsignal(signal) << ")";
      break;
    case End::timed_out:
      s << "killed after the timeout of " << timeout_s << " s";
      break;
    case End::finished:
      s << "ended with exit code " << exit_code;
      break;
  }
  return s.str();
}

ChildProcess::ChildProcess(const std::function<std::string()>& work, double timeout_s) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // The child dies with the parent (SIGINT, SIGTERM or a crash of the parent).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() == 1) ::_exit(1);
    // Told to what runs here (daekit/process_role.hpp): not the process a launcher started,
    // whatever the environment says.
    ::setenv(child_process_variable, "1", 1);
    ::close(fds[0]);
    int code = 0;
    try {
      write_all(fds[1], work());
    } catch (const std::exception& e) {
      std::cerr << "daekit: " << e.what() << "\n";
      code = work_threw_exit_code;
    } catch (...) {
      std::cerr << "daekit: an unknown exception\n";
      code = work_threw_exit_code;
    }
    ::close(fds[1]);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    // No atexit handlers or static destructors of the parent's state in the child.
    ::_exit(code);
  }
  ::close(fds[1]);
  pid_ = pid;
  fd_ = fds[0];
  if (timeout_s > 0) {
    has_deadline_ = true;
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_s));
  }
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_), fd_(other.fd_), buffer_(std::move(other.buffer_)), has_deadline_(other.has_deadline_),
      deadline_(other.deadline_) {
  other.pid_ = -1;
  other.fd_ = -1;
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this == &other) return *this;
  release();
  pid_ = other.pid_;
  fd_ = other.fd_;
  buffer_ = std::move(other.buffer_);
  has_deadline_ = other.has_deadline_;
  deadline_ = other.deadline_;
  other.pid_ = -1;
  other.fd_ = -1;
  return *this;
}

void remove_temporaries_of(pid_t pid) noexcept {
  namespace fs = std::filesystem;
  const char* tmp = std::getenv("TMPDIR");
  const fs::path dir = tmp && *tmp ? fs::path(tmp) : fs::path("/tmp");
  std::string mark = "-";  // appended: gcc 12's -Wrestrict misfires on "-" + string
  mark += std::to_string(pid);
  mark += '-';
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // daekit-<what>-<pid>-<random>: the pid is the third field exactly.
    if (name.rfind("daekit-", 0) != 0) continue;
    const std::size_t second = name.find('-', 7);
    if (second == std::string::npos || name.compare(second, mark.size(), mark) != 0) continue;
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

void ChildProcess::release() noexcept {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    remove_temporaries_of(pid_);
    pid_ = -1;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

ChildProcess::~ChildProcess() { release(); }

bool ChildProcess::read_available() {
  char buf[65536];
  const ssize_t got = ::read(fd_, buf, sizeof buf);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (got <= 0) return false;
  buffer_.append(buf, static_cast<std::size_t>(got));
  return true;
}

ChildOutcome ChildProcess::finish(bool kill_it) {
  ChildOutcome out;
  int status = 0;
  const pid_t child_pid = pid_;
  if (!kill_it && has_deadline_) {
    // The pipe closed, but a child that closed it on purpose may still run: the deadline
    // holds until it has exited. A child that closed it by exiting is reaped within a
    // millisecond or so: the pauses start short (a fixed 10 ms cost every point of a
    // sweep ~8 ms, and under MPI kept the coordinator from answering the ranks).
    useconds_t pause = 50;
    for (;;) {
      const pid_t done = ::waitpid(pid_, &status, WNOHANG);
      if (done == pid_) break;
      if (done < 0 && errno != EINTR) break;
      if (expired(std::chrono::steady_clock::now())) {
        kill_it = true;
        break;
      }
      ::usleep(pause);
      pause = std::min<useconds_t>(2 * pause, 10000);
    }
    if (!kill_it) {
      pid_ = -1;  // reaped above
    }
  }
  if (kill_it) ::kill(pid_, SIGKILL);
  if (pid_ > 0)
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  remove_temporaries_of(child_pid);
  pid_ = -1;
  ::close(fd_);
  fd_ = -1;
  out.payload = std::move(buffer_);
  if (kill_it) {
    out.end = ChildOutcome::End::timed_out;
  } else if (WIFSIGNALED(status)) {
    out.end = ChildOutcome::End::crashed;
    out.signal = WTERMSIG(status);
  } else {
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  return out;
}

ChildOutcome run_in_child(const std::function<std::string()>& work, double timeout_s) {
  ChildProcess child(work, timeout_s);
  for (;;) {
    pollfd pfd{child.fd(), POLLIN, 0};
    const int ready = ::poll(&pfd, 1, 100);
    if (ready > 0 && !child.read_available()) return child.finish(false);
    if (child.expired(std::chrono::steady_clock::now())) return child.finish(true);
  }
}

}  // namespace daekit::host
