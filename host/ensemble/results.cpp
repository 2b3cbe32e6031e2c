#include "results.hpp"
#include "../checked_file.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "../records.hpp"

namespace daekit::host::ensemble {
namespace {

using nlohmann::json;

std::string number(double v) {
  if (!std::isfinite(v)) return "";
  std::ostringstream s;
  s << std::setprecision(17) << v;
  return s.str();
}

double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

json summary_of(const std::vector<const MemberResult*>& members, const StudyInfo& info) {
  json out = json::object();
  std::size_t ok = 0;
  for (const auto* m : members) ok += m->ok();
  out["members"] = members.size();
  out["succeeded"] = ok;
  for (std::size_t k = 0; k < info.output_names.size(); ++k) {
    std::vector<double> values;
    for (const auto* m : members)
      if (m->ok() && k < m->outputs.size()) values.push_back(m->outputs[k]);
    out["outputs"][info.output_names[k]] = statistics(values);
  }
  return out;
}

}  // namespace

json statistics(std::vector<double> values) {
  json s = {{"count", values.size()}};
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  double mean = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  s["mean"] = mean;
  // The sample standard deviation (n - 1); 0 for a single value.
  s["sd"] = values.size() > 1 ? std::sqrt(squares / static_cast<double>(values.size() - 1)) : 0.0;
  s["min"] = values.front();
  s["q05"] = quantile(values, 0.05);
  s["median"] = quantile(values, 0.5);
  s["q95"] = quantile(values, 0.95);
  s["max"] = values.back();
  return s;
}

json summary(const std::vector<MemberResult>& members, const StudyInfo& info) {
  std::vector<const MemberResult*> all;
  for (const auto& m : members) all.push_back(&m);
  json out = summary_of(all, info);
  if (info.per_grid_point) {
    std::map<std::size_t, std::vector<const MemberResult*>> by_point;
    for (const auto& m : members) by_point[m.member.grid_point].push_back(&m);
    for (const auto& [point, group] : by_point) {
      json entry = summary_of(group, info);
      entry["grid_point"] = point;
      for (const auto& [key, value] : group.front()->member.values)
        if (std::find(info.varied.begin(), info.varied.end(), key) != info.varied.end()) entry["at"][key] = value;
      out["grid_points"].push_back(entry);
    }
  }
  return out;
}

static void member_rows(std::ostream& out, const std::vector<MemberResult>& members, const StudyInfo& info) {
  out << "member,grid_point,sample,status";
  for (const auto& k : info.varied) out << "," << csv_field(k);
  // An output named like a varied parameter or a fixed column (an FMU's parameter is
  // also one of its outputs) gets "@tend", so that no two columns share a name.
  const std::vector<std::string> fixed = {"member", "grid_point", "sample", "status", "steps", "accepted",
                                          "rejected", "nfev", "njac", "nlu", "wall_s", "host", "message"};
  for (const auto& name : info.output_names) {
    const bool taken = std::find(info.varied.begin(), info.varied.end(), name) != info.varied.end() ||
                       std::find(fixed.begin(), fixed.end(), name) != fixed.end();
    out << "," << csv_field(taken ? name + "@tend" : name);
  }
  out << ",steps,accepted,rejected,nfev,njac,nlu,wall_s,host,message\n";
  for (std::size_t i = 0; i < members.size(); ++i) {
    const MemberResult& m = members[i];
    out << i << "," << m.member.grid_point << "," << m.member.sample << "," << m.status;
    for (const auto& k : info.varied) out << "," << number(m.member.values.at(k));
    for (std::size_t k = 0; k < info.output_names.size(); ++k)
      out << "," << (k < m.outputs.size() ? number(m.outputs[k]) : "");
    for (const char* s : {"steps", "accepted", "rejected", "nfev", "njac", "nlu"})
      out << "," << (m.stats.contains(s) ? m.stats[s].dump() : "");
    out << "," << number(m.wall_s) << "," << csv_field(m.host) << "," << csv_field(m.message) << "\n";
  }
}

void write_members_csv(const std::string& file, const std::vector<MemberResult>& members, const StudyInfo& info) {
  write_file_checked(file, [&](std::ostream& out) { member_rows(out, members, info); });
}


void write_results_json(const std::string& file, const std::vector<MemberResult>& members, const StudyInfo& info,
                        const json& summary) {
  json rows = json::array();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const MemberResult& m = members[i];
    json outputs = json::object();
    for (std::size_t k = 0; k < m.outputs.size() && k < info.output_names.size(); ++k)
      outputs[info.output_names[k]] = std::isfinite(m.outputs[k]) ? json(m.outputs[k]) : json(nullptr);
    rows.push_back({{"member", i}, {"grid_point", m.member.grid_point}, {"sample", m.member.sample},
                    {"params", m.member.values}, {"status", m.status}, {"message", m.message},
                    {"outputs", outputs}, {"stats", m.stats}, {"wall_s", m.wall_s}, {"host", m.host},
                    {"rank", m.rank}});
  }
  json meta = info.meta;
  meta["problem"] = info.problem;
  meta["solver"] = info.solver;
  meta["command_line"] = info.command_line;
  meta["date"] = now_utc();
  const std::string text = json{{"meta", meta}, {"members", rows}, {"summary", summary}}.dump(2);
  write_file_checked(file, [&](std::ostream& o) { o << text << "\n"; });
}

void print_summary(std::ostream& out, const json& summary, const StudyInfo& info) {
  out << summary["succeeded"].get<std::size_t>() << " of " << summary["members"].get<std::size_t>()
      << " members succeeded; at the end:\n";
  out << std::left << std::setw(16) << "output" << std::right;
  for (const char* h : {"count", "mean", "sd", "min", "median", "max"}) out << std::setw(14) << h;
  out << "\n";
  for (const auto& name : info.output_names) {
    const json& s = summary["outputs"][name];
    out << std::left << std::setw(16) << name << std::right << std::setw(14) << s["count"].get<std::size_t>();
    for (const char* k : {"mean", "sd", "min", "median", "max"}) {
      std::ostringstream v;
      if (s.contains(k)) v << std::setprecision(6) << s[k].get<double>();
      out << std::setw(14) << (s.contains(k) ? v.str() : "-");
    }
    out << "\n";
  }
}

}  // namespace daekit::host::ensemble
