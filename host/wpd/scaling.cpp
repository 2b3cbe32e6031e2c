#include "scaling.hpp"
#include "../checked_file.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>

namespace daekit::host::wpd {
namespace {

// The value as a positive number, or NaN (a file name, a word, zero).
double positive_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    return used == text.size() && v > 0 && std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
  } catch (const std::exception&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

std::vector<std::string> write_scaling(const std::string& dir, const std::vector<PointResult>& rows,
                                       const SweepInfo& info, const std::string& subtitle) {
  namespace fs = std::filesystem;
  std::vector<std::string> scripts;
  for (const auto& sweep : info.parameter_sweeps) {
    double target = info.target_scd;
    if (!(target > 0)) {
      target = std::numeric_limits<double>::infinity();
      for (const auto& label : sweep.labels) {
        const double best = common_best_scd(rows, label);
        if (std::isfinite(best)) target = std::min(target, best);
      }
      if (!std::isfinite(target)) continue;  // no instance has a scored success
    }
    std::map<std::string, std::map<std::string, double>> times;  // label -> setup -> time
    for (const auto& label : sweep.labels) times[label] = times_to_reach(rows, label, info.setups, target);
    bool numeric = true;
    for (const auto& v : sweep.values) numeric = numeric && !std::isnan(positive_number(v));

    const std::string base = sweep.problem + "-scaling";
    std::ostringstream csv;
    csv << sweep.key;
    for (const auto& setup : info.setups) csv << "," << setup;
    csv << "\n" << std::setprecision(6);
    for (std::size_t k = 0; k < sweep.values.size(); ++k) {
      csv << sweep.values[k];
      for (const auto& setup : info.setups) {
        const double t = times[sweep.labels[k]][setup];
        csv << ",";
        if (std::isfinite(t)) csv << t;
      }
      csv << "\n";
    }

    write_file_checked((fs::path(dir) / (base + ".csv")).string(), [&](std::ostream& o) { o << csv.str(); });

    // One block per setup: x (the value, or its position when values are not numbers), time.
    std::ostringstream data;
    std::ostringstream plot;
    for (std::size_t s = 0; s < info.setups.size(); ++s) {
      data << "# " << info.setups[s] << "\n";
      for (std::size_t k = 0; k < sweep.values.size(); ++k) {
        const double t = times[sweep.labels[k]][info.setups[s]];
        const double x = numeric ? positive_number(sweep.values[k]) : static_cast<double>(k + 1);
        if (std::isfinite(t))
          data << std::setprecision(10) << x << " " << t << "\n";
        else
          data << "\n";  // not reached: a gap, never a bridge
      }
      data << "NaN NaN\n\n\n";
      plot << (s ? ", \\\n     " : "plot ") << "\"" << base << ".dat\" index " << s
           << " using 1:2 " << series_linespoints(static_cast<int>(s))
           << " title \"" << gnuplot_string(info.setups[s]) << "\" noenhanced";
    }
    write_file_checked((fs::path(dir) / (base + ".dat")).string(), [&](std::ostream& o) { o << data.str(); });
    std::ostringstream gp;
    gp << figure_axes(numeric, true) << figure_legend();
    if (!numeric) {
      gp << "set xtics (";
      for (std::size_t k = 0; k < sweep.values.size(); ++k)
        gp << (k ? ", " : "") << "\"" << gnuplot_string(sweep.values[k]) << "\" " << k + 1;
      gp << ")\nset xrange [0.5:" << sweep.values.size() + 0.5 << "]\n";
    }
    gp << "set xlabel \"" << gnuplot_string(sweep.key) << "\" noenhanced\n"
       << "set ylabel \"time to reach scd " << std::fixed << std::setprecision(2) << target << std::defaultfloat
       << " (s, median)\"\n"
       << "set title \"" << gnuplot_string(sweep.problem) << ": cost against " << gnuplot_string(sweep.key) << ", tol "
       << gnuplot_string(info.tolerances) << "\\n" << gnuplot_string(subtitle) << "\" noenhanced\n"
       << svg_and_png(base, plot.str());
    write_file_checked((fs::path(dir) / (base + ".gp")).string(), [&](std::ostream& o) { o << gp.str(); });
    scripts.push_back(base + ".gp");
  }
  return scripts;
}

}  // namespace daekit::host::wpd
