#include "rank_rows.hpp"

#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <thread>
#include <vector>

#include <daekit/api/discovery.hpp>
#include <daekit/scoring.hpp>

#include "checked_file.hpp"

namespace daekit::host {
namespace {

// Message tags of this exchange (a run's ranks exchange nothing else).
constexpr int score_tag = 7101;
constexpr int rows_tag = 7102;

// Doubles in and out of a message's bytes.
std::string pack(const std::vector<double>& values) {
  std::string bytes(values.size() * sizeof(double), '\0');
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}
std::vector<double> unpack(const std::string& bytes) {
  std::vector<double> values(bytes.size() / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

// Rank 0's receiving side: messages taken by source and tag, whatever order they arrive in
// (a rank sends its score and then its rows without waiting).
class Mailbox {
 public:
  explicit Mailbox(farm::Transport& ranks) : ranks_(ranks) {}
  std::vector<double> take(int source, int tag) {
    for (;;) {
      for (auto it = pending_.begin(); it != pending_.end(); ++it)
        if (it->source == source && it->tag == tag) {
          std::vector<double> values = unpack(it->bytes);
          pending_.erase(it);
          return values;
        }
      if (std::optional<farm::Message> m = ranks_.receive()) {
        pending_.push_back(std::move(*m));
        continue;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

 private:
  farm::Transport& ranks_;
  std::deque<farm::Message> pending_;
};

// An accuracy as the maxima and count it merges from; absent: an empty list.
std::vector<double> score_message(const std::optional<Accuracy>& a) {
  if (!a) return {};
  return {a->max_abs_error,
          a->max_rel_error,
          a->max_mixed_error,
          static_cast<double>(a->scored_components),
          a->max_rel_error_by_index[0],
          a->max_rel_error_by_index[1],
          a->max_rel_error_by_index[2]};
}
std::optional<Accuracy> score_of(const std::vector<double>& v) {
  if (v.size() != 7) return std::nullopt;
  Accuracy a;
  a.max_abs_error = v[0];
  a.max_rel_error = v[1];
  a.max_mixed_error = v[2];
  a.scored_components = static_cast<int>(v[3]);
  a.max_rel_error_by_index = {v[4], v[5], v[6]};
  return a;
}

// Rank 0: the report's accuracy over every rank's rows (none unless every rank scored).
void merge_scores(farm::Transport& ranks, Mailbox& mail, RunReport& report) {
  std::optional<Accuracy> all = report.accuracy;
  for (int r = 1; r < ranks.size(); ++r) {
    const std::optional<Accuracy> part = score_of(mail.take(r, score_tag));
    all = all && part ? std::optional<Accuracy>(merged(*all, *part)) : std::nullopt;
  }
  report.accuracy = all;
  if (all) report.scored_components = std::to_string(all->scored_components) + " components over " +
                                      std::to_string(ranks.size()) + " ranks";
}

// Each point's rows of every rank into the global vector, on rank 0; the other ranks send
// theirs point by point (first row, then values), so no message holds more than a point.
void gather_rows(farm::Transport& ranks, Mailbox& mail, const Solution& solution, const dk_problem_info& info,
                 const std::string& output_file) {
  const std::size_t points = solution.t.size(), owned = solution.n, first = info.distribution->first_row;
  if (ranks.rank() != 0) {
    for (std::size_t p = 0; p < points; ++p) {
      std::vector<double> message{static_cast<double>(first)};
      message.insert(message.end(), solution.y.begin() + static_cast<std::ptrdiff_t>(p * owned),
                     solution.y.begin() + static_cast<std::ptrdiff_t>((p + 1) * owned));
      ranks.send(0, rows_tag, pack(message));
    }
    return;
  }
  std::vector<double> y(points * info.n, 0.0);
  for (std::size_t p = 0; p < points; ++p) {
    std::copy_n(solution.y.begin() + static_cast<std::ptrdiff_t>(p * owned), owned,
                y.begin() + static_cast<std::ptrdiff_t>(p * info.n + first));
    for (int r = 1; r < ranks.size(); ++r) {
      const std::vector<double> part = mail.take(r, rows_tag);
      const auto start = static_cast<std::size_t>(part.at(0));
      if (start + part.size() - 1 > info.n) throw std::runtime_error("rank " + std::to_string(r) + " sent rows past n");
      std::copy(part.begin() + 1, part.end(), y.begin() + static_cast<std::ptrdiff_t>(p * info.n + start));
    }
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.n; ++i) names.push_back(api::component_name(info, i));
  const std::string target = output_target(output_file, solution.success());
  write_trajectory(target, names, solution.t, y);
  if (!solution.success()) say_where_failed_output_went(points, output_file, target);
}

// Every rank's own rows into its own file, the columns named by their global rows.
void write_own_rows(int rank, const Solution& solution, const dk_problem_info& info, const std::string& output_file) {
  const std::size_t first = info.distribution->first_row;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < solution.n; ++i) names.push_back(api::component_name(info, first + i));
  const std::string file = rank_file(output_file, rank);
  write_trajectory(output_target(file, solution.success()), names, solution.t, solution.y);
}

}  // namespace

std::string rank_file(const std::string& output_file, int rank) {
  const std::filesystem::path path(output_file);
  std::filesystem::path named = path;
  named.replace_filename(path.stem().string() + ".rank" + std::to_string(rank) + path.extension().string());
  return named.string();
}

void finish_on_ranks(farm::Transport& ranks, const Solution& solution, const dk_problem_info& info,
                     const std::string& output_file, std::size_t gather_limit, RunReport& report) {
  Mailbox mail(ranks);
  if (ranks.rank() != 0) ranks.send(0, score_tag, pack(score_message(report.accuracy)));
  else merge_scores(ranks, mail, report);
  if (output_file.empty()) return;
  if (info.n <= gather_limit) gather_rows(ranks, mail, solution, info, output_file);
  else write_own_rows(ranks.rank(), solution, info, output_file);
}

}  // namespace daekit::host
