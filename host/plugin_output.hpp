// Plugins' own prints (model debugging, library banners) moved off stdout while a
// command's JSON is due there, so the report stays parseable (run, fit).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace daekit::host {

// While active, stdout is stderr; restore() before writing the report.
class PluginOutputToStderr {
 public:
  explicit PluginOutputToStderr(bool active) {
    if (!active) return;
    std::cout.flush();
    std::fflush(stdout);
    saved_ = ::dup(STDOUT_FILENO);
    if (saved_ >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  ~PluginOutputToStderr() { restore(); }
  PluginOutputToStderr(const PluginOutputToStderr&) = delete;
  PluginOutputToStderr& operator=(const PluginOutputToStderr&) = delete;
  void restore() {
    if (saved_ < 0) return;
    std::cout.flush();
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
    saved_ = -1;
  }

 private:
  int saved_ = -1;
};

}  // namespace daekit::host
