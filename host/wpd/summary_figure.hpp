// The summary figure of a sweep over several problems: one panel per problem (its
// first measure against time), side by side in a grid, the legend once in a strip across
// the figure below them, so that a multi-problem study is one picture (as SciMLBenchmarks' pages show
// several problems at a glance).
#pragma once

#include <string>
#include <vector>

#include "outputs.hpp"

namespace daekit::host::wpd {

struct Panel {
  std::string problem;
  std::string plot;     // the panel's gnuplot plot command, reading the problem's .dat
  std::string xlabel;
  bool clip_x = false;  // points with an error above 1 are left beyond the axis
  bool empty = false;   // no successful run
};

// Writes summary.gp into dir for two or more panels; returns the script's name, or "".
std::string write_summary_figure(const std::string& dir, const std::vector<Panel>& panels, const SweepInfo& info,
                                 const std::string& subtitle);

}  // namespace daekit::host::wpd
