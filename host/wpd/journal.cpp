#include "journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "../cli.hpp"
#include "../stats_json.hpp"

namespace daekit::host::wpd {
namespace {

using nlohmann::json;

json json_number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
}  // namespace

double number_or_nan(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::numeric_limits<double>::quiet_NaN();
}

void read_accuracy(const json& j, PointResult& r) {
  r.scd = number_or_nan(j, "scd");
  r.mescd = number_or_nan(j, "mescd");
  r.final_error = number_or_nan(j, "final_error");
  r.l2 = number_or_nan(j, "l2");
  r.final_mean = number_or_nan(j, "final_mean");
  r.l2_steps = number_or_nan(j, "l2_steps");
  r.linf_steps = number_or_nan(j, "linf_steps");
  r.l2_dense = number_or_nan(j, "L2_dense");
  r.linf_dense = number_or_nan(j, "Linf_dense");
  r.sens_error = number_or_nan(j, "sens_error");
  if (j.contains("error_references") && j["error_references"].is_object())
    for (const auto& [measure, used] : j["error_references"].items())
      if (used.is_string()) r.references_used[measure] = used.get<std::string>();
}

json row_to_json(const PointResult& r) {
  const dk_stats& s = r.stats;
  return {{"problem", r.point.problem},
          {"instance", r.point.instance},
          {"solver", r.point.solver},
          {"setup", r.point.setup},
          {"setup_options", r.point.setup_options},
          {"sweep_tol", r.point.sweep_tol},
          {"params", r.point.params},
          {"solver_options", r.point.settings.solver_options},
          {"rtol", r.point.rtol},
          {"atol", r.point.atol},
          {"status", r.status},
          {"message", r.message},
          {"runs", r.runs},
          {"wall_median_s", json_number(r.wall_median)},
          {"wall_min_s", json_number(r.wall_min)},
          {"wall_max_s", json_number(r.wall_max)},
          {"stats", stats_to_json(s, /*with_beside=*/false)},
          {"scd", json_number(r.scd)},
          {"mescd", json_number(r.mescd)},
          {"final_error", json_number(r.final_error)},
          {"l2", json_number(r.l2)},
          {"final_mean", json_number(r.final_mean)},
          {"l2_steps", json_number(r.l2_steps)},
          {"linf_steps", json_number(r.linf_steps)},
          {"L2_dense", json_number(r.l2_dense)},
          {"Linf_dense", json_number(r.linf_dense)},
          {"sens_error", json_number(r.sens_error)},
          {"error_references", r.references_used},
          {"host", r.host},
          {"rank", r.rank}};
}

PointResult row_from_json(const json& row, const Point& point) {
  PointResult r;
  r.point = point;
  r.status = row.at("status").get<std::string>();
  r.message = row.value("message", "");
  r.runs = row.value("runs", 0);
  r.wall_median = number_or_nan(row, "wall_median_s");
  r.wall_min = number_or_nan(row, "wall_min_s");
  r.wall_max = number_or_nan(row, "wall_max_s");
  r.stats = stats_from_json(row.at("stats"));
  read_accuracy(row, r);
  r.host = row.value("host", "");
  r.rank = row.value("rank", 0);
  return r;
}

std::string point_key(const Point& p, int runs, const std::string& scoring) {
  const RunSettings& s = p.settings;
  json key = {{"problem", p.problem},
              {"params", p.params},
              {"solver", p.solver},
              {"setup", p.setup},
              {"setup_options", p.setup_options},
              {"solver_options", s.solver_options},
              {"rtol", p.rtol},
              {"atol", s.atol ? json(*s.atol) : json(nullptr)},
              {"max_steps", s.max_steps},
              {"init", s.init},
              {"runs", runs},
              {"scoring", scoring}};
  return key.dump();
}

FolderLock::FolderLock(const std::filesystem::path& dir) {
  const std::string file = (dir / ".wpd.lock").string();
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw UsageError("--out " + dir.string() + ": cannot create " + file + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw UsageError("--out " + dir.string() + " is in use by another daekit wpd; wait for it or choose another folder");
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

Journal::Journal(const std::filesystem::path& dir, bool resume) : file_(dir / file_name) {
  if (resume) {
    std::ifstream in(file_, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // A last line without its newline was cut short by a kill: it is cut off, so the next
    // line starts on a line of its own (its point runs again).
    const std::size_t complete = text.empty() || text.back() == '\n' ? text.size() : text.rfind('\n') + 1;
    if (complete < text.size()) {
      std::error_code ec;
      std::filesystem::resize_file(file_, complete, ec);
      if (ec) throw UsageError("cannot repair " + file_.string() + " (its last line was cut short): " + ec.message());
    }
    std::istringstream lines(text.substr(0, complete));
    for (std::string line; std::getline(lines, line);) {
      try {
        const json j = json::parse(line);
        earlier_[j.at("key").get<std::string>()] = j.at("row");
      } catch (const std::exception&) {
        // a line that is not one of ours (edited by hand): its point runs again
      }
    }
  }
  out_ = std::fopen(file_.c_str(), resume ? "a" : "w");
  if (!out_) throw UsageError("cannot write " + file_.string() + ": " + std::strerror(errno));
}

Journal::~Journal() {
  if (out_) std::fclose(out_);
}

std::optional<PointResult> Journal::earlier(const std::string& key, const Point& point) const {
  auto it = earlier_.find(key);
  if (it == earlier_.end()) return std::nullopt;
  try {
    return row_from_json(it->second, point);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void Journal::append(const std::string& key, const PointResult& r) {
  const std::string line = json{{"key", key}, {"row", row_to_json(r)}}.dump() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), out_) != line.size() || std::fflush(out_) != 0)
    throw UsageError("cannot write " + file_.string() + ": " + std::strerror(errno));
}

}  // namespace daekit::host::wpd
