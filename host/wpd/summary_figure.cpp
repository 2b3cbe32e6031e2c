#include "summary_figure.hpp"
#include "../checked_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace daekit::host::wpd {
namespace {

// Pixels of the figure's parts.
constexpr std::size_t panel_width = 520, panel_height = 420, title_height = 60, legend_row_height = 26;

}  // namespace

std::string write_summary_figure(const std::string& dir, const std::vector<Panel>& panels, const SweepInfo& info,
                                 const std::string& subtitle) {
  if (panels.size() < 2) return "";
  const std::size_t columns = panels.size() < 3 ? panels.size() : 3;
  const std::size_t rows = (panels.size() + columns - 1) / columns;
  // The panels in a grid under the title, the legend in a strip of its own across the
  // whole width below them: placed by hand, so that no panel's axis labels and the legend
  // share any area (gnuplot's layout put a panel's key over its x label).
  const std::size_t legend_height = legend_row_height * (legend_rows(info.setups.size()) + 1);
  const std::size_t width = panel_width * columns, height = title_height + panel_height * rows + legend_height;
  const double h = static_cast<double>(height);
  const double panel_w = 1.0 / static_cast<double>(columns), panel_h = static_cast<double>(panel_height) / h;
  const double legend_h = static_cast<double>(legend_height) / h;
  std::ostringstream figure;
  // reset: the figure is drawn twice (SVG, PNG), and the legend strip unsets the axes.
  figure << "reset\nset multiplot title \"work-precision, tol " << gnuplot_string(info.tolerances) << "\\n"
         << gnuplot_string(subtitle) << "\" noenhanced\n"
         << figure_axes(true, true) << "unset key\nset ylabel \"time (s, median)\"\n";
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const Panel& p = panels[k];
    const std::size_t row = k / columns, column = k % columns;
    figure << "set origin " << panel_w * static_cast<double>(column) << ","
           << legend_h + panel_h * static_cast<double>(rows - 1 - row) << "\nset size " << panel_w << "," << panel_h
           << "\nset title \"" << gnuplot_string(p.problem) << "\" noenhanced\n"
           << "set xlabel \"" << gnuplot_string(p.xlabel) << "\" noenhanced\n"
           << (p.clip_x ? "set xrange [*:1]\n" : "set xrange [*:*]\n")
           << (p.empty ? "set xrange [1e-12:1]\nset yrange [1e-4:10]\n" : "set yrange [*:*]\n") << p.plot << "\n";
  }
  // The series are the same setups in the same styles in every panel: one legend.
  figure << "set origin 0,0\nset size 1," << legend_h << "\n" << legend_only(info.setups) << "unset multiplot\n";
  const std::string base = "summary";
  std::ostringstream gp;
  gp << "set terminal svg size " << width << "," << height
     << " dynamic enhanced font \"sans,11\" background rgb \"white\"\n"
     << "set output \"" << base << ".svg\"\n"
     << figure.str() << "set terminal pngcairo size " << width << "," << height
     << " enhanced font \"sans,10\" background rgb \"white\"\n"
     << "set output \"" << base << ".png\"\n"
     << figure.str();
  write_file_checked((std::filesystem::path(dir) / (base + ".gp")).string(), [&](std::ostream& o) { o << gp.str(); });
  return base + ".gp";
}

}  // namespace daekit::host::wpd
