// The accuracy measures of a sweep (--error): what each one means, which reference and
// which output of the run it needs, and the arithmetic that turns a run into its number.
//
// Two families. The test set's: `final` (also `scd`), the largest relative error at tend
// over the scored components, with its scd, and `l2`, the RMS error on 100 times against a
// reference trajectory (logarithmic times for spans from 0 beyond 1e4). And
// DiffEqDevTools' (src/test_solution.jl, appxtrue), absolute errors over all components,
// so that curves can be laid over SciMLBenchmarks' pages:
//   final-mean  :final   mean |y(tend) - yref(tend)|
//   l2-steps    :l2      sqrt(mean (y - yref)^2) over every point the solver stepped to
//                        (t0 included) and every component
//   linf-steps  :l∞      max |y - yref| over the same
//   L2          :L2      sqrt(mean (y - yref)^2) on 100 uniform times t0 ... tend, the
//                        solution there from the solver's dense output
//   Linf        :L∞      max |y - yref| on the same times
// And the sensitivities' (--sensitivities names the columns):
//   sens        max over the columns k of max_i |s_ik - sref_ik| / max_i |sref_ik| at tend:
//               each column's error relative to its largest entry (a column's entries
//               may differ by many orders, and many are near 0), against a tight run
//               of the reference solver with its sensitivities in the error test
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace daekit::host::wpd {

struct PointResult;

enum class Measure { final_relative, l2_reference, final_mean, l2_steps, linf_steps, l2_dense, linf_dense, sens };

// The measures --error names, in its order, each once: a comma list of final, scd, l2,
// both (final and l2), final-mean, l2-steps, linf-steps, L2, Linf, sens. Throws UsageError for
// an unknown name, with the closest one.
std::vector<Measure> parse_error_measures(const std::string& text);

// The name --error takes (and results.json's meta lists), the tag of the diagrams' file
// names, and the x axis of the diagrams.
std::string measure_name(Measure m);
std::string diagram_tag(Measure m);
std::string axis_label(Measure m);

// The row's value of the measure (NaN when not computed).
double value_of(const PointResult& r, Measure m);

bool wants(const std::vector<Measure>& measures, Measure m);
// A measure that needs the solution at every step, or at the 100 uniform times.
bool wants_steps(const std::vector<Measure>& measures);
bool wants_dense(const std::vector<Measure>& measures);

// DiffEqDevTools' dense times: count times from t0 to tend, both included.
std::vector<double> uniform_times(double t0, double tend, std::size_t count = 100);

// The arithmetic, on equally long arrays of absolute differences' operands.
double mean_abs_error(const double* y, const double* yref, std::size_t n);
double rms_error(const std::vector<double>& y, const std::vector<double>& yref);
double max_abs_error(const std::vector<double>& y, const std::vector<double>& yref);
// `sens`: s and sref n x columns, column-major; NaN when a column's reference is all 0
// (nothing to be relative to) or an entry is not finite.
double sensitivity_error(const double* s, const std::vector<double>& sref, std::size_t n);

}  // namespace daekit::host::wpd
