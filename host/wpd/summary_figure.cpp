#include "summary_figure.hpp"
#include "../checked_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace daekit::host::wpd {

std::string write_summary_figure(const std::string& dir, const std::vector<Panel>& panels, const SweepInfo& info,
                                 const std::string& subtitle) {
  if (panels.size() < 2) return "";
  const std::size_t columns = panels.size() < 3 ? panels.size() : 3;
  const std::size_t rows = (panels.size() + columns - 1) / columns;
  // Room for the legend under the grid: a row of keys per four series.
  const std::size_t legend_rows = (info.setups.size() + 3) / 4;
  const std::size_t width = 520 * columns, height = 420 * rows + 24 * legend_rows + 60;
  std::ostringstream figure;
  figure << "set multiplot layout " << rows << "," << columns << " title \"work-precision, tol "
         << gnuplot_string(info.tolerances) << "\\n" << gnuplot_string(subtitle) << "\" noenhanced\n"
         << "set logscale xy\nset grid\nset format x \"10^{%L}\"\nset format y \"10^{%L}\"\n"
         << "set ylabel \"time (s, median)\"\n"
         // The same bottom margin in every panel (the first holds the legend), so the plot
         // areas line up.
         << "set bmargin " << 4 + 2 * legend_rows << "\n";
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const Panel& p = panels[k];
    figure << "set title \"" << gnuplot_string(p.problem) << "\" noenhanced\n"
           << "set xlabel \"" << gnuplot_string(p.xlabel) << "\" noenhanced\n"
           << (p.clip_x ? "set xrange [*:1]\n" : "set xrange [*:*]\n")
           << (p.empty ? "set xrange [1e-12:1]\nset yrange [1e-4:10]\n" : "set yrange [*:*]\n")
           // The legend once: the series are the same setups in the same styles everywhere.
           << (k == 0 ? "set key outside below center horizontal maxrows 4 font \",9\"\n" : "unset key\n")
           << p.plot << "\n";
  }
  figure << "unset multiplot\n";
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
