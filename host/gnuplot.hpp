// Diagrams drawn by gnuplot (wpd's work-precision diagrams, fit's data against the model):
// the scripts' common pieces and running gnuplot on them without a shell.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace daekit::host {

// The one layout rule of every figure, so that diagrams read alike: a log axis labelled
// in powers of ten (10^{-6}), the grid on, and (figure_legend) the legend below the data,
// centred, in columns of at most four rows, so its width never squeezes the data.
std::string figure_axes(bool log_x, bool log_y);
std::string figure_legend();
// The legend of a multi-panel figure, drawn on its own in the area multiplot gives it:
// series k titled titles[k] in series k's style (the panels themselves draw no key).
std::string legend_only(const std::vector<std::string>& titles);
// The rows legend_only draws `series` in (six to a row).
std::size_t legend_rows(std::size_t series);

// How series k of a diagram is drawn: lines and points in series_style(k).
std::string series_linespoints(int k);
// The style of series k of a diagram (colour, marker, dash; 16 pairwise distinct).
std::string series_style(int k);
// Its colour and dash alone, for what draws no marker (error bars).
std::string series_line_style(int k);
// s inside a gnuplot double-quoted string.
std::string gnuplot_string(const std::string& s);
// The end of a diagram's script: `plot` drawn into BASE.svg and BASE.png (1000 x 700).
std::string svg_and_png(const std::string& base, const std::string& plot);

// Runs gnuplot on each script (a file name in `dir`, run there): false when one failed or
// wrote an incomplete image (its messages are kept beside it as SCRIPT.log); a missing
// gnuplot is a warning on `log` saying how to install it, and true. `command` ("wpd")
// opens the messages.
bool draw_scripts(const std::string& dir, const std::vector<std::string>& scripts, std::ostream& log,
                  const std::string& command);

}  // namespace daekit::host
