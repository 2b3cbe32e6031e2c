#include "report.hpp"

#include "stats_json.hpp"

#include <daekit/api/stat_fields.hpp>

#include "checked_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <daekit/status.hpp>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <ostream>

#include "cli.hpp"

namespace daekit::host {

namespace {

// Worth a line of its own only when the problem has components of more than one index.
bool by_index_differs(const Accuracy& a) {
  int kinds = 0;
  for (double v : a.scd_by_index) kinds += std::isnan(v) ? 0 : 1;
  return kinds > 1;
}

const char* direction_name(std::int32_t d) { return d > 0 ? "rising" : d < 0 ? "falling" : nullptr; }

const char* action_name(std::uint32_t a) {
  switch (a) {
    case DK_EVENT_STOP: return "stop";
    case DK_EVENT_REINIT: return "reinit";
    default: return "continue";
  }
}

std::string event_source(const RunReport& r, const EventRecord& e) {
  if (e.kind == DK_EVENT_STEP) return "step event (the model asked after a step)";
  if (e.kind == DK_EVENT_TIME || e.index < 0) return "time event";
  std::string s = "root " + std::to_string(e.index);
  if (static_cast<std::size_t>(e.index) < r.root_names.size() && !r.root_names[e.index].empty())
    s += " (" + r.root_names[e.index] + ")";
  return s;
}

struct EventCounts {
  std::size_t events = 0, roots_fired = 0;
};
// Entries of one event (several functions firing together) share its time and kind.
EventCounts count_events(const std::vector<EventRecord>& records) {
  EventCounts c;
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (k == 0 || records[k].t != records[k - 1].t || records[k].kind != records[k - 1].kind) ++c.events;
    if (records[k].kind == DK_EVENT_ROOT) ++c.roots_fired;
  }
  return c;
}

// The first and last few events in the text report; all of them are in the JSON.
constexpr std::size_t events_listed = 10;

// dy/dq at the last point, one row per component; the statistics of their cost.
void print_sensitivities(const RunReport& r, std::ostream& out) {
  const dk_stats& s = r.result.stats;
  out << "sensitivities " << r.sensitivity_names.size() << " (" << s.nfev_sens << " f evals, " << s.nsolve_sens
      << " solves, " << s.nsens_error_fails << " steps rejected for them)";
  if (r.sensitivities_at_end.empty()) {
    out << "; none reached\n";
    return;
  }
  out << " at t=" << r.result.t_reached << ":\n" << std::setprecision(6) << std::left << "  " << std::setw(14) << "d y / d";
  for (const auto& name : r.sensitivity_names) out << " " << std::setw(14) << name;
  out << "\n";
  for (std::size_t i = 0; i < r.sensitivities_at_end.size(); ++i) {
    out << "  " << std::setw(14) << r.component_names[i];
    for (double v : r.sensitivities_at_end[i]) out << " " << std::setw(14) << v;
    out << "\n";
  }
  out << std::right;
}

}  // namespace

void print_text(const RunReport& r, std::ostream& out) {
  const dk_stats& s = r.result.stats;
  const Status status = static_cast<Status>(r.result.status);
  out << std::setprecision(6);
  out << "problem    " << r.problem << ": " << r.problem_title << " (n=" << r.n << ", t in [" << r.t0 << ", "
      << r.tend << "])\n"
      << "solver     " << r.solver << " " << r.solver_version << "  rtol=" << r.rtol << " atol=" << r.atol
      << " jacobian=" << r.jacobian << "\n"
      << "status     " << status_name(status) << "\n";
  if (r.result.message[0]) out << "message    " << r.result.message << "\n";
  out << "t reached  " << r.result.t_reached << "\n"
      << "steps      " << s.steps << " (accepted " << s.accepted << ", rejected " << s.rejected << ")\n"
      << "f evals    " << s.nfev << " (" << s.nfev_jac << " for finite-difference Jacobians)\n"
      << "jacobians  " << s.njac << "   LU " << s.nlu;
  if (const char* la = api::linear_algebra_name(s.linear_algebra)) out << " (" << la << ")";
  out << "   solves " << s.nsolve;
  if (s.nnewton) out << "   Newton " << s.nnewton << " (" << s.nnewton_fail << " failed)";
  if (s.nsingular) out << "   singular " << s.nsingular;
  out << "\n";
  if (r.has_events) {
    const EventCounts counted = count_events(r.events);
    out << "events     " << counted.events << " (" << counted.roots_fired << " root functions fired, "
        << s.nroot_evals << " root-function evaluations)\n";
    for (std::size_t k = 0; k < r.events.size(); ++k) {
      if (k == events_listed / 2 && r.events.size() > events_listed) {
        out << "           ... " << r.events.size() - events_listed << " more (all in --report json)\n";
        k = r.events.size() - events_listed / 2;
      }
      const EventRecord& e = r.events[k];
      out << "  event    t=" << std::setprecision(10) << e.t << "  " << event_source(r, e);
      if (const char* d = direction_name(e.direction)) out << " " << d;
      out << " -> " << action_name(e.action) << "\n";
    }
  }
  if (r.constraints_ignored)
    out << "constraints not enforced: solver '" << r.solver << "' ignores the problem's sign constraints\n";
  if (s.nconstraint_fails) out << "constraints " << s.nconstraint_fails << " steps rejected for leaving a sign constraint\n";
  if (!r.sensitivity_names.empty()) print_sensitivities(r, out);
  out << "wall time  " << std::setprecision(4) << s.wall_s << " s\n";
  if (r.accuracy) {
    const Accuracy& a = *r.accuracy;
    out << std::fixed << std::setprecision(2) << "accuracy   scd " << a.scd << " (" << r.scored_components
        << "), mescd " << a.mescd << std::defaultfloat << std::setprecision(3) << "; max abs error "
        << a.max_abs_error << ", max rel error " << a.max_rel_error << "\n";
    if (by_index_differs(a)) {
      out << "by index  " << std::fixed << std::setprecision(2);
      for (int k = 0; k < 3; ++k)
        if (!std::isnan(a.scd_by_index[k])) out << " scd " << a.scd_by_index[k] << " (index " << k + 1 << ")";
      out << std::defaultfloat << "\n";
    }
    out << "reference  " << r.reference_source;
    if (!r.reference_used.empty()) out << " (" << r.reference_used << ")";
    out << "\n";
  }
}

nlohmann::json to_json(const RunReport& r) {
  using nlohmann::json;
  const dk_stats& s = r.result.stats;
  auto number = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json j;
  j["status"] = std::string(status_name(static_cast<Status>(r.result.status)));
  j["message"] = std::string(r.result.message);
  j["problem"] = r.problem;
  j["solver"] = r.solver;
  j["solver_version"] = r.solver_version;
  j["n"] = r.n;
  j["t"] = number(r.result.t_reached);
  j["tend"] = r.tend;
  // Numbers, as in wpd's results; atol is an array where it differs per component.
  j["rtol"] = r.rtol_value;
  j["atol"] = r.atol_values.size() == 1 ? json(r.atol_values[0]) : json(r.atol_values);
  j["jacobian"] = r.jacobian;
  const char* linear_algebra = api::linear_algebra_name(s.linear_algebra);
  j["linear_algebra"] = linear_algebra ? json(linear_algebra) : json(nullptr);
  j["scd"] = r.accuracy ? number(r.accuracy->scd) : json(nullptr);
  j["mescd"] = r.accuracy ? number(r.accuracy->mescd) : json(nullptr);
  if (r.accuracy) {
    json by_index = json::object();
    for (int k = 0; k < 3; ++k)
      if (!std::isnan(r.accuracy->scd_by_index[k])) by_index[std::to_string(k + 1)] = number(r.accuracy->scd_by_index[k]);
    j["scd_by_index"] = by_index;
  } else {
    j["scd_by_index"] = nullptr;
  }
  j["max_abs_error"] = r.accuracy ? number(r.accuracy->max_abs_error) : json(nullptr);
  j["max_rel_error"] = r.accuracy ? number(r.accuracy->max_rel_error) : json(nullptr);
  j["reference"] = r.reference_source.empty() ? json(nullptr) : json(r.reference_source);
  // Which reference scored the run: the stored vector at its time, or the exact solution.
  j["reference_used"] = r.reference_used.empty() ? json(nullptr) : json(r.reference_used);
  j["wall_s"] = s.wall_s;
  j["stats"] = stats_to_json(s, /*with_beside=*/false);
  // Events (ABI 1.2): one entry per function that fired (several at one t fired together).
  auto events = json::array();
  for (const EventRecord& e : r.events) {
    json item;
    item["t"] = number(e.t);
    item["kind"] = e.kind == DK_EVENT_TIME ? "time" : e.kind == DK_EVENT_STEP ? "step" : "root";
    item["index"] = e.index >= 0 ? json(e.index) : json(nullptr);
    item["name"] = e.index >= 0 && static_cast<std::size_t>(e.index) < r.root_names.size() && !r.root_names[e.index].empty()
                       ? json(r.root_names[e.index])
                       : json(nullptr);
    item["direction"] = e.direction != 0 ? json(e.direction) : json(nullptr);
    item["action"] = action_name(e.action);
    events.push_back(item);
  }
  j["events"] = events;
  j["constraints_ignored"] = r.constraints_ignored;
  // Events, not entries: functions that fired together at one t are one event.
  const EventCounts counted = count_events(r.events);
  j["nevents"] = counted.events;
  j["nroots_fired"] = counted.roots_fired;
  // Forward sensitivities: at_tend[i][k] = d y_i / d q_k at the end (null when not reached).
  if (!r.sensitivity_names.empty()) {
    json at_end = json::array();
    for (const auto& row : r.sensitivities_at_end) {
      json values = json::array();
      for (double v : row) values.push_back(number(v));
      at_end.push_back(values);
    }
    j["sensitivities"] = {{"parameters", r.sensitivity_names},
                          {"at_tend", r.sensitivities_at_end.empty() ? json(nullptr) : at_end}};
  }
  return j;
}

void check_writable(const std::string& file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path(file);
  if (fs::exists(path, ec)) {
    if (fs::is_directory(path, ec)) throw UsageError("--output " + file + " is a folder");
    if (::access(file.c_str(), W_OK) != 0)
      throw UsageError("cannot write --output " + file + ": " + std::strerror(errno));
    return;
  }
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec)) throw UsageError("cannot write --output " + file + ": no folder " + folder.string());
  if (::access(folder.c_str(), W_OK) != 0)
    throw UsageError("cannot write --output " + file + " in " + folder.string() + ": " + std::strerror(errno));
}

namespace {

void write_points(std::ostream& out, const std::string& file, const std::vector<std::string>& names,
                  const std::vector<double>& t, const std::vector<double>& y) {
  const std::size_t n = names.size();
  const bool json_file = file.size() >= 5 && file.compare(file.size() - 5, 5, ".json") == 0;
  if (json_file) {
    nlohmann::json j;
    j["names"] = names;
    j["t"] = t;
    auto rows = nlohmann::json::array();
    for (std::size_t k = 0; k < t.size(); ++k) rows.push_back(std::vector<double>(y.begin() + k * n, y.begin() + (k + 1) * n));
    j["y"] = rows;
    out << j.dump() << "\n";
    return;
  }
  out << "t";
  for (const auto& name : names) out << "," << name;
  out << "\n" << std::setprecision(std::numeric_limits<double>::max_digits10);
  for (std::size_t k = 0; k < t.size(); ++k) {
    out << t[k];
    for (std::size_t i = 0; i < n; ++i) out << "," << y[k * n + i];
    out << "\n";
  }
}

}  // namespace

void write_trajectory_with_events(const std::string& file, const std::vector<std::string>& names,
                                  const Trajectory& trajectory, TrajectoryColumns which) {
  // Merge by time; at one time an ordinary point (the step's end) comes between the limits.
  const bool variables = which == TrajectoryColumns::variables;
  const std::size_t n = variables ? trajectory.variable_names.size() : trajectory.n;
  const std::vector<double>& points = variables ? trajectory.variables : trajectory.y;
  const std::vector<double>& marked = variables ? trajectory.marked_variables : trajectory.marked_y;
  struct Row {
    double t;
    int order;  // 1 left limit, 2 ordinary, 3 right limit: the order at one t
    std::size_t source;
    std::uint32_t mark;
  };
  std::vector<Row> rows;
  for (std::size_t k = 0; k < trajectory.t.size(); ++k) rows.push_back({trajectory.t[k], 2, k, 0});
  for (std::size_t k = 0; k < trajectory.marked_t.size(); ++k)
    rows.push_back({trajectory.marked_t[k], trajectory.marks[k] == DK_MARK_LEFT_LIMIT ? 1 : 3, k, trajectory.marks[k]});
  const double dir = trajectory.t.size() > 1 && trajectory.t.back() < trajectory.t.front() ? -1.0 : 1.0;
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    return a.t != b.t ? dir * (a.t - b.t) < 0.0 : a.order < b.order;
  });
  std::vector<std::string> columns = names;
  columns.push_back("event");
  std::vector<double> t, y;
  for (const Row& row : rows) {
    t.push_back(row.t);
    const double* from = row.mark ? marked.data() + row.source * n : points.data() + row.source * n;
    y.insert(y.end(), from, from + n);
    y.push_back(static_cast<double>(row.mark));
  }
  write_trajectory(file, columns, t, y);
}

void write_trajectory(const std::string& file, const std::vector<std::string>& names, const std::vector<double>& t,
                      const std::vector<double>& y) {
  write_file_checked(file, [&](std::ostream& out) { write_points(out, file, names, t, y); });
}

int reporting_refusals(bool json, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    if (json) {
      nlohmann::json j;
      j["status"] = dynamic_cast<const UnsupportedProblem*>(&e) ? "unsupported_problem" : "invalid_input";
      j["message"] = e.what();
      std::cout << j.dump(2) << "\n";
    }
    throw;
  }
}

int run_isolated(const char* command, bool json, bool in_process, double timeout_s, const std::function<int()>& body,
                 const std::function<int(const ChildOutcome&)>& lost) {
  const auto reported = [&] { return reporting_refusals(json, body); };
  if (in_process) return reported();
  const ChildOutcome end = run_in_child([&] { return std::to_string(exit_code_of(command, reported)); }, timeout_s);
  if (end.finished() && end.exit_code == 0 && !end.payload.empty()) return std::stoi(end.payload);
  return lost(end);
}

LostChild lost_child(const ChildOutcome& end, double timeout, const std::string& what) {
  LostChild lost;
  lost.status = end.end == ChildOutcome::End::timed_out ? "timeout" : "crashed";
  lost.message = what + " " + end.describe(timeout) +
                 (end.end == ChildOutcome::End::crashed ? ": a plugin ended the process" : "");
  return lost;
}

nlohmann::json lost_child_json(const std::string& status, const std::string& message, const std::string& problem,
                               const std::string& solver, int signal) {
  nlohmann::json j;
  j["status"] = status;
  j["message"] = message;
  j["problem"] = problem;
  j["solver"] = solver;
  j["signal"] = status == "crashed" ? nlohmann::json(signal) : nlohmann::json(nullptr);
  return j;
}

}  // namespace daekit::host
