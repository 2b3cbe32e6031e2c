// What an ensemble leaves in its output folder: members.csv (one row per member: its
// parameters, status, outputs at the end, statistics), results.json (the same with the
// study's settings, machine and build, and the summary), and the summary on the terminal:
// per output, over the members that succeeded, count, mean, standard deviation, min,
// 5 %, 50 % and 95 % quantiles and max; per grid point too when each point is sampled.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "parameter_study.hpp"

namespace daekit::host::ensemble {

struct MemberResult {
  Member member;
  std::string status = "interrupted", message, host;
  int rank = 0;
  nlohmann::json stats = nlohmann::json::object();
  double wall_s = 0;
  std::vector<double> outputs;  // at the end, in the order of the study's outputs (success only)
  bool ok() const { return status == "success"; }
};

struct StudyInfo {
  std::string problem, solver, command_line;
  std::vector<std::string> varied;        // the varied parameters, in column order
  std::vector<std::string> output_names;  // the chosen outputs
  nlohmann::json meta;                    // settings, seed, grids, distributions, ranks, ...
  bool per_grid_point = false;            // a summary per grid point as well
};

// Statistics of one output over the members that succeeded (quantiles by linear interpolation).
nlohmann::json statistics(std::vector<double> values);
nlohmann::json summary(const std::vector<MemberResult>& members, const StudyInfo& info);

void write_members_csv(const std::string& file, const std::vector<MemberResult>& members, const StudyInfo& info);
void write_results_json(const std::string& file, const std::vector<MemberResult>& members, const StudyInfo& info,
                        const nlohmann::json& summary);
void print_summary(std::ostream& out, const nlohmann::json& summary, const StudyInfo& info);

}  // namespace daekit::host::ensemble
