#include "report.hpp"

#include <cmath>
#include <iomanip>

#include "../stats_json.hpp"

namespace daekit::host::fit {
namespace {

using nlohmann::json;

// A number, or null where it is not finite (JSON has no NaN).
json value(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json by_name(const std::vector<std::string>& names, const std::vector<double>& values) {
  json j = json::object();
  for (std::size_t k = 0; k < names.size() && k < values.size(); ++k) j[names[k]] = value(values[k]);
  return j;
}

std::size_t degrees_of_freedom(const daekit::fit::FitResult& r) {
  return r.measurements > r.names.size() ? r.measurements - r.names.size() : 0;
}

}  // namespace

json fit_to_json(const daekit::fit::FitResult& r, const FitRequest& request) {
  json j;
  j["status"] = r.status;
  j["message"] = r.message;
  j["problem"] = request.problem_name;
  j["solver"] = request.solver_name;
  j["estimates"] = by_name(r.names, r.estimates);
  j["initial"] = by_name(r.names, r.initial);
  j["standard_errors"] = r.standard_errors.empty() ? json(nullptr) : by_name(r.names, r.standard_errors);
  json intervals = json::object();
  for (std::size_t k = 0; k < r.lower.size(); ++k) intervals[r.names[k]] = {value(r.lower[k]), value(r.upper[k])};
  j["confidence_intervals"] = r.lower.empty() ? json(nullptr) : intervals;
  j["confidence_level"] = request.settings.confidence;
  if (r.covariance.empty()) {
    j["covariance"] = nullptr;
  } else {
    json rows = json::array();
    for (std::size_t a = 0; a < r.names.size(); ++a) {
      json row = json::array();
      for (std::size_t b = 0; b < r.names.size(); ++b) row.push_back(value(r.covariance[a * r.names.size() + b]));
      rows.push_back(row);
    }
    j["covariance"] = {{"names", r.names}, {"matrix", rows}};
  }
  j["identifiability"] = r.identifiability.empty() ? json(nullptr) : json(r.identifiability);
  j["chi2"] = value(r.chi2);
  j["residual_norm"] = value(r.residual_norm);
  j["measurements"] = r.measurements;
  j["degrees_of_freedom"] = degrees_of_freedom(r);
  j["reduced_chi2"] = degrees_of_freedom(r) > 0 ? value(r.chi2 / static_cast<double>(degrees_of_freedom(r))) : json(nullptr);
  j["iterations"] = r.iterations;
  j["gradient"] = r.gradient;
  j["solves"] = r.solves;
  j["failed_solves"] = r.failed_solves;
  j["wall_s"] = r.wall_s;
  j["stats"] = stats_to_json(r.solver_stats, false);
  json experiments = json::array();
  for (const auto& e : r.experiments) {
    json points = json::array();
    for (const auto& p : e.points)
      points.push_back({{"t", p.t}, {"name", p.name}, {"value", p.value}, {"sigma", p.sigma},
                        {"model", value(p.model)}, {"residual", value(p.residual)}});
    experiments.push_back({{"id", e.id}, {"chi2", value(e.chi2)}, {"points", points}});
  }
  j["experiments"] = experiments;
  json starts = json::array();
  for (const auto& s : r.starts)
    starts.push_back({{"initial", by_name(r.names, s.initial)}, {"final", by_name(r.names, s.final)},
                      {"status", s.status}, {"cost", value(s.cost)}, {"iterations", s.iterations}});
  j["starts"] = starts;
  return j;
}

void print_fit(const daekit::fit::FitResult& r, const FitRequest& request, std::ostream& out) {
  out << "problem     " << request.problem_name << "\nsolver      " << request.solver_name << "\nstatus      "
      << r.status << "\n";
  if (!r.message.empty()) out << "message     " << r.message << "\n";
  out << "chi2        " << r.chi2 << " (" << r.measurements << " measurements, " << degrees_of_freedom(r)
      << " degrees of freedom)\niterations  " << r.iterations << " (" << r.gradient << " gradients), " << r.solves << " solves (" << r.failed_solves
      << " failed), " << std::setprecision(3) << r.wall_s << " s\n"
      << std::setprecision(6);
  const int level = static_cast<int>(std::lround(request.settings.confidence * 100));
  out << "\n" << std::left << std::setw(16) << "estimate" << std::right << std::setw(14) << "value" << std::setw(14)
      << "std error" << std::setw(30) << (std::to_string(level) + "% interval") << std::setw(14) << "initial" << "\n";
  for (std::size_t k = 0; k < r.names.size(); ++k) {
    out << std::left << std::setw(16) << r.names[k] << std::right << std::setw(14) << r.estimates[k];
    if (k < r.standard_errors.size()) {
      std::ostringstream interval;
      interval << "[" << std::setprecision(6) << r.lower[k] << ", " << r.upper[k] << "]";
      out << std::setw(14) << r.standard_errors[k] << std::setw(30) << interval.str();
    } else {
      out << std::setw(14) << "-" << std::setw(30) << "-";
    }
    out << std::setw(14) << r.initial[k] << "\n";
  }
  if (!r.identifiability.empty()) out << "\nno covariance: " << r.identifiability << "\n";
}

}  // namespace daekit::host::fit
