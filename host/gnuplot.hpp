// Diagrams drawn by gnuplot (wpd's work-precision diagrams, fit's data against the model):
// the scripts' common pieces and running gnuplot on them without a shell.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace daekit::host {

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
