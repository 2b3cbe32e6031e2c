#include "error_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <daekit/sdk/closest_names.hpp>

#include "../cli.hpp"
#include "sweep.hpp"

namespace daekit::host::wpd {
namespace {

struct Description {
  Measure measure;
  const char* name;
  const char* tag;
  const char* axis;
};

const Description descriptions[] = {
    {Measure::final_relative, "final", "final", "error at tend (max relative, scored components)"},
    {Measure::l2_reference, "l2", "l2", "L2 error of the timeseries (vs. reference)"},
    {Measure::final_mean, "final-mean", "final-mean", "mean absolute error at tend, all components (SciML :final)"},
    {Measure::l2_steps, "l2-steps", "l2-steps", "RMS absolute error at the solver's steps (SciML :l2)"},
    {Measure::linf_steps, "linf-steps", "linf-steps", "max absolute error at the solver's steps (SciML :l∞)"},
    {Measure::l2_dense, "L2", "L2-dense", "RMS absolute error at 100 uniform times, dense output (SciML :L2)"},
    {Measure::linf_dense, "Linf", "Linf-dense", "max absolute error at 100 uniform times, dense output (SciML :L∞)"},
    {Measure::sens, "sens", "sens", "error of dy/dq at tend (max abs error / each column's largest entry)"},
};

const Description& describe(Measure m) {
  for (const auto& d : descriptions)
    if (d.measure == m) return d;
  return descriptions[0];
}

}  // namespace

std::vector<Measure> parse_error_measures(const std::string& text) {
  std::vector<Measure> out;
  auto add = [&](Measure m) {
    if (!wants(out, m)) out.push_back(m);
  };
  const std::vector<std::string> names = split_list(text, ',');
  if (names.empty()) throw UsageError("--error names no measure");
  for (const auto& name : names) {
    if (name == "scd") {
      add(Measure::final_relative);
      continue;
    }
    if (name == "both") {
      add(Measure::final_relative);
      add(Measure::l2_reference);
      continue;
    }
    const auto* found = std::find_if(std::begin(descriptions), std::end(descriptions),
                                     [&](const Description& d) { return name == d.name; });
    if (found != std::end(descriptions)) {
      add(found->measure);
      continue;
    }
    std::vector<std::string> known = {"scd", "both"};
    for (const auto& d : descriptions) known.emplace_back(d.name);
    std::string message = "--error: no measure '" + name + "'";
    const auto near = daekit::closest_names(name, known);
    // Case counts (l2 and L2 are two measures), so every near name is offered.
    for (std::size_t k = 0; k < near.size(); ++k)
      message += (k ? " or '" : " (did you mean '") + near[k] + (k + 1 == near.size() ? "'?)" : "'");
    message += "; the measures: final (or scd), l2, both, final-mean, l2-steps, linf-steps, L2, Linf, sens";
    throw UsageError(message);
  }
  return out;
}

std::string measure_name(Measure m) { return describe(m).name; }
std::string diagram_tag(Measure m) { return describe(m).tag; }
std::string axis_label(Measure m) { return describe(m).axis; }

double value_of(const PointResult& r, Measure m) {
  switch (m) {
    case Measure::final_relative: return r.final_error;
    case Measure::l2_reference: return r.l2;
    case Measure::final_mean: return r.final_mean;
    case Measure::l2_steps: return r.l2_steps;
    case Measure::linf_steps: return r.linf_steps;
    case Measure::l2_dense: return r.l2_dense;
    case Measure::linf_dense: return r.linf_dense;
    case Measure::sens: return r.sens_error;
  }
  return r.final_error;
}

bool wants(const std::vector<Measure>& measures, Measure m) {
  return std::find(measures.begin(), measures.end(), m) != measures.end();
}
bool wants_steps(const std::vector<Measure>& measures) {
  return wants(measures, Measure::l2_steps) || wants(measures, Measure::linf_steps);
}
bool wants_dense(const std::vector<Measure>& measures) {
  return wants(measures, Measure::l2_dense) || wants(measures, Measure::linf_dense);
}

std::vector<double> uniform_times(double t0, double tend, std::size_t count) {
  std::vector<double> times(count);
  for (std::size_t k = 0; k < count; ++k)
    times[k] = t0 + (tend - t0) * static_cast<double>(k) / static_cast<double>(count - 1);
  times.front() = t0;
  times.back() = tend;
  return times;
}

double mean_abs_error(const double* y, const double* yref, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += std::abs(y[i] - yref[i]);
  return n ? sum / static_cast<double>(n) : 0.0;
}

double rms_error(const std::vector<double>& y, const std::vector<double>& yref) {
  double sum = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) sum += (y[i] - yref[i]) * (y[i] - yref[i]);
  return y.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(y.size()));
}

double max_abs_error(const std::vector<double>& y, const std::vector<double>& yref) {
  double worst = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double d = std::abs(y[i] - yref[i]);
    if (std::isnan(d)) return d;  // std::max would pass over it
    worst = std::max(worst, d);
  }
  return worst;
}

double sensitivity_error(const double* s, const std::vector<double>& sref, std::size_t n) {
  double worst = 0.0;
  for (std::size_t begin = 0; n > 0 && begin + n <= sref.size(); begin += n) {
    double largest = 0.0, error = 0.0;
    for (std::size_t i = begin; i < begin + n; ++i) {
      largest = std::max(largest, std::abs(sref[i]));
      const double d = std::abs(s[i] - sref[i]);
      if (!std::isfinite(d)) return std::numeric_limits<double>::quiet_NaN();
      error = std::max(error, d);
    }
    if (!(largest > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    worst = std::max(worst, error / largest);
  }
  return worst;
}

}  // namespace daekit::host::wpd
