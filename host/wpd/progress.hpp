// One progress line for long sweeps: what runs now, how many are done, elapsed
// and estimated remaining time. Redrawn in place on a terminal, one line per
// point otherwise (logs), nothing in quiet mode.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace daekit::host::wpd {

class ProgressBar {
 public:
  ProgressBar(std::size_t total, bool quiet)
      : total_(total), quiet_(quiet), tty_(isatty(fileno(stderr))), start_(std::chrono::steady_clock::now()) {}

  void update(std::size_t done, const std::string& label) {
    if (quiet_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double remaining = done ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0.0;
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done / total_) : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "%s[%s] %zu/%zu  %s  elapsed %.0fs, remaining ~%.0fs%s", tty_ ? "\r\033[K" : "",
                 bar.c_str(), done, total_, label.c_str(), elapsed, remaining, tty_ ? "" : "\n");
    std::fflush(stderr);
  }
  void finish() {
    if (!quiet_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  std::size_t total_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace daekit::host::wpd
