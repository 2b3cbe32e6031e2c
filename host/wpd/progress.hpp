// Progress of a long sweep: what runs, how many are done, elapsed time and the time still
// to come, estimated per series from the finished points (cost_model.hpp). On a terminal
// one line redrawn in place, ticking every second while a point runs; otherwise (logs)
// one line per finished point; nothing in quiet mode.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cost_model.hpp"

namespace daekit::host::wpd {

struct ProgressPoint {
  std::string label, series;  // "rober / rodas5p / tol 1e-06", "rober/rodas5p"
  double rtol = 0;
  bool pending = true;        // still to run (not refused, not resumed)
};

class ProgressBar {
 public:
  ProgressBar(std::vector<ProgressPoint> points, int jobs, bool quiet)
      : points_(std::move(points)), jobs_(std::max(1, jobs)), quiet_(quiet), tty_(isatty(fileno(stderr))),
        start_(clock::now()) {
    for (const auto& p : points_) done_ += p.pending ? 0 : 1;
  }

  void started(std::size_t i) {
    running_[i] = clock::now();
    if (tty_) draw(points_[i].label);
  }
  void finished(std::size_t i, const std::string& status) {
    const auto began = running_.count(i) ? running_[i] : clock::now();
    const double took = seconds_since(began);
    running_.erase(i);
    points_[i].pending = false;
    ++done_;
    // A failed point says nothing about what the others cost.
    if (status == "success") costs_.add(points_[i].series, points_[i].rtol, took);
    if (quiet_) return;
    if (tty_) {
      draw(points_[i].label);
    } else {
      char took_text[32];
      std::snprintf(took_text, sizeof took_text, "%.2f", took);
      std::fprintf(stderr, "[%zu/%zu] %s: %s in %s s; elapsed %.0f s, remaining %s\n", done_, points_.size(),
                   points_[i].label.c_str(), status.c_str(), took_text, seconds_since(start_),
                   remaining_text().c_str());
      std::fflush(stderr);
    }
  }
  // Called while points run: the terminal line's clocks move at least once a second.
  void tick() {
    if (quiet_ || !tty_ || running_.empty()) return;
    if (seconds_since(last_draw_) < 1.0) return;
    draw(points_[running_.begin()->first].label);
  }
  void finish() {
    if (!quiet_ && tty_) std::fprintf(stderr, "\n");
  }

  // Seconds still to come: every pending point by its series' trend, minus what the running
  // ones have already spent, shared among the jobs. Negative means unknown (nothing finished).
  double remaining() const {
    if (costs_.empty()) return -1.0;
    double total = 0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      if (!points_[i].pending) continue;
      double cost = costs_.predict(points_[i].series, points_[i].rtol).value_or(0.0);
      if (auto it = running_.find(i); it != running_.end()) cost = std::max(0.0, cost - seconds_since(it->second));
      total += cost;
    }
    return total / jobs_;
  }

 private:
  using clock = std::chrono::steady_clock;
  static double seconds_since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }
  std::string remaining_text() const {
    const double r = remaining();
    if (r < 0) return "unknown yet";
    char text[32];
    std::snprintf(text, sizeof text, "~%.0f s", r);
    return text;
  }
  void draw(const std::string& label) {
    if (quiet_) return;
    last_draw_ = clock::now();
    const int width = 30;
    const int filled = points_.empty() ? width : static_cast<int>(width * done_ / points_.size());
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\r\033[K[%s] %zu/%zu  %s  elapsed %.0f s, remaining %s", bar.c_str(), done_, points_.size(),
                 label.c_str(), seconds_since(start_), remaining_text().c_str());
    std::fflush(stderr);
  }

  std::vector<ProgressPoint> points_;
  double jobs_;
  bool quiet_, tty_;
  std::size_t done_ = 0;
  clock::time_point start_, last_draw_{};
  std::map<std::size_t, clock::time_point> running_;
  CostModel costs_;
};

}  // namespace daekit::host::wpd
