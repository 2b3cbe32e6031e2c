#include "plots.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "../checked_file.hpp"
#include "../gnuplot.hpp"

namespace daekit::host::fit {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t panels_per_figure = 12;

// Log time axis when the positive measurement times span more than three decades.
bool log_time(const daekit::fit::ExperimentFit& e) {
  double lo = INFINITY, hi = 0;
  for (const auto& p : e.points)
    if (p.t > 0) lo = std::min(lo, p.t), hi = std::max(hi, p.t);
  return hi > 0 && hi / lo > 1e3;
}

// One gnuplot data block per observed name: measurements, then (index 2k+1) the model.
std::string data_of(const daekit::fit::ExperimentFit& e, const daekit::fit::ModelCurve& c, bool log_t) {
  std::ostringstream d;
  d << std::setprecision(12);
  for (std::size_t k = 0; k < c.names.size(); ++k) {
    d << "# " << c.names[k] << ": t value sigma\n";
    for (const auto& p : e.points)
      if (p.name == c.names[k] && (!log_t || p.t > 0)) d << p.t << " " << p.value << " " << p.sigma << "\n";
    d << "\n\n# " << c.names[k] << ": t model\n";
    for (std::size_t i = 0; i < c.t.size(); ++i)
      if (!log_t || c.t[i] > 0) d << c.t[i] << " " << c.values[i * c.names.size() + k] << "\n";
    d << "\n\n";
  }
  return d.str();
}

std::string script_of(const std::string& base, const std::string& data_file, const daekit::fit::ExperimentFit& e, const daekit::fit::ModelCurve& c,
                      std::size_t first, std::size_t count, bool log_t) {
  const std::size_t columns = count <= 3 ? 1 : 2, rows = (count + columns - 1) / columns;
  const int width = columns == 1 ? 900 : 1400, height = static_cast<int>(std::max<std::size_t>(rows * 280, 420));
  std::ostringstream panels;
  panels << "set multiplot layout " << rows << "," << columns << " title \"" << gnuplot_string(e.id)
         << ": data (1 sigma) and the fitted model, chi2 " << std::setprecision(4) << e.chi2 << "\" noenhanced\n"
         << figure_axes(log_t, false) << figure_legend()
         << "set xlabel \"t\"\n";
  for (std::size_t k = first; k < first + count; ++k)
    panels << "set ylabel \"" << gnuplot_string(c.names[k]) << "\" noenhanced\n"
           << "plot \"" << gnuplot_string(data_file) << "\" index " << 2 * k + 1 << " using 1:2 with lines linewidth 2 "
           << "linecolor rgb \"#0072B2\" title \"model\", \"\" index " << 2 * k
           << " using 1:2:3 with yerrorbars pointsize 0.8 " << series_style(4) << " title \"data\"\n";
  panels << "unset multiplot\n";
  std::ostringstream gp;
  for (const char* terminal : {"svg", "png"}) {
    gp << (std::string(terminal) == "svg" ? "set terminal svg size " : "set terminal pngcairo size ") << width << ","
       << height << " enhanced font \"sans,11\" background rgb \"white\"\nset output \"" << gnuplot_string(base) << "." << terminal
       << "\"\n" << panels.str() << "unset output\n";
  }
  return gp.str();
}

}  // namespace

bool write_fit_plots(const std::string& dir, const daekit::fit::FitResult& result,
                     const std::vector<daekit::fit::ModelCurve>& curves, std::ostream& log) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create the plot folder '" + dir + "': " + ec.message());
  std::vector<std::string> scripts;
  for (std::size_t x = 0; x < result.experiments.size() && x < curves.size(); ++x) {
    const auto& e = result.experiments[x];
    const auto& c = curves[x];
    if (!c.failure.empty()) log << "daekit fit: the model of experiment " << e.id << " for its plot: " << c.failure << "\n";
    const bool log_t = log_time(e);
    write_file_checked((fs::path(dir) / (e.id + ".dat")).string(), [&](std::ostream& o) { o << data_of(e, c, log_t); });
    for (std::size_t first = 0; first < c.names.size(); first += panels_per_figure) {
      const std::string base = first == 0 ? e.id : e.id + "-" + std::to_string(first / panels_per_figure + 1);
      const std::size_t count = std::min(panels_per_figure, c.names.size() - first);
      const std::string script = script_of(base, e.id + ".dat", e, c, first, count, log_t);
      write_file_checked((fs::path(dir) / (base + ".gp")).string(), [&](std::ostream& o) { o << script; });
      scripts.push_back(base + ".gp");
    }
  }
  return draw_scripts(dir, scripts, log, "fit");
}

}  // namespace daekit::host::fit
