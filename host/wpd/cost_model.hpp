// How long the points of a sweep still take, from the ones that finished: tighter
// tolerances cost more, so each (problem, setup) series gets its own trend, a straight
// line of log(time) against log10(1/rtol) fitted to its finished points. A series with
// one finished point borrows the median slope of the others (or a factor 1.6 per decade,
// a typical high-order solver's), one with none the median time of all finished points.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace daekit::host::wpd {

class CostModel {
 public:
  void add(const std::string& series, double rtol, double seconds) {
    samples_[series].push_back({std::log10(1.0 / rtol), std::log(std::max(seconds, 1e-6))});
  }
  bool empty() const { return samples_.empty(); }

  // Seconds a point of this series at this rtol is expected to take; nullopt before any finished.
  std::optional<double> predict(const std::string& series, double rtol) const {
    if (samples_.empty()) return std::nullopt;
    const double x = std::log10(1.0 / rtol);
    auto it = samples_.find(series);
    if (it == samples_.end() || it->second.empty()) return std::exp(median_of_all());
    const auto& s = it->second;
    double slope = 0, intercept = 0;
    if (fit(s, &slope, &intercept)) return std::exp(intercept + slope * x);
    // One point (or all at one tolerance): its mean, moved along the others' slope.
    double mean_x = 0, mean_y = 0;
    for (const auto& [sx, sy] : s) mean_x += sx, mean_y += sy;
    mean_x /= static_cast<double>(s.size());
    mean_y /= static_cast<double>(s.size());
    return std::exp(mean_y + borrowed_slope() * (x - mean_x));
  }

 private:
  using Samples = std::vector<std::pair<double, double>>;
  static bool fit(const Samples& s, double* slope, double* intercept) {
    if (s.size() < 2) return false;
    double mx = 0, my = 0;
    for (const auto& [x, y] : s) mx += x, my += y;
    mx /= static_cast<double>(s.size());
    my /= static_cast<double>(s.size());
    double sxx = 0, sxy = 0;
    for (const auto& [x, y] : s) sxx += (x - mx) * (x - mx), sxy += (x - mx) * (y - my);
    if (sxx < 1e-12) return false;
    // A cost that falls as the tolerance tightens is noise: never extrapolate it downwards.
    *slope = std::max(0.0, sxy / sxx);
    *intercept = my - *slope * mx;
    return true;
  }
  double borrowed_slope() const {
    std::vector<double> slopes;
    for (const auto& [name, s] : samples_) {
      double slope = 0, intercept = 0;
      if (fit(s, &slope, &intercept)) slopes.push_back(slope);
    }
    if (slopes.empty()) return std::log(1.6);
    std::nth_element(slopes.begin(), slopes.begin() + static_cast<std::ptrdiff_t>(slopes.size() / 2), slopes.end());
    return slopes[slopes.size() / 2];
  }
  double median_of_all() const {
    std::vector<double> ys;
    for (const auto& [name, s] : samples_)
      for (const auto& [x, y] : s) ys.push_back(y);
    std::nth_element(ys.begin(), ys.begin() + static_cast<std::ptrdiff_t>(ys.size() / 2), ys.end());
    return ys[ys.size() / 2];
  }
  std::map<std::string, Samples> samples_;
};

}  // namespace daekit::host::wpd
