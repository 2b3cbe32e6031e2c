// What keeps a sweep's finished work: results.jsonl in the output folder, one line
// per point written and flushed as the point finishes (a killed sweep keeps what it
// did), read back by --resume, which reruns only the points whose settings differ or
// that did not finish; and the lock that keeps a second sweep out of a folder in use.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sweep.hpp"

namespace daekit::host::wpd {

// A number of a JSON object, NaN where it is absent or null (non-finite values are stored as null).
double number_or_nan(const nlohmann::json& j, const char* key);

// A point's row as results.json and results.jsonl hold it.
nlohmann::json row_to_json(const PointResult& r);
// The accuracy numbers of a row (scd, mescd, final_error, l2, final_mean, ...) and their
// error_references, as row_to_json writes them and a point's child reports them.
void read_accuracy(const nlohmann::json& j, PointResult& r);
// A row read back for `point` (its settings are the point's own).
PointResult row_from_json(const nlohmann::json& row, const Point& point);

// Everything a point's result depends on besides the plugins' code: problem and its
// parameters, solver and its options, tolerances, limits, runs, the error measure and
// the reference it is scored against.
std::string point_key(const Point& p, int runs, const std::string& scoring);

// An exclusive lock on the folder for as long as this object lives (flock: released by
// the kernel when the process ends, however it ends). Throws UsageError when another
// sweep holds it.
class FolderLock {
 public:
  explicit FolderLock(const std::filesystem::path& dir);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

class Journal {
 public:
  static constexpr const char* file_name = "results.jsonl";
  // resume: keep the earlier lines and offer their rows; otherwise start anew.
  Journal(const std::filesystem::path& dir, bool resume);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // The finished row of an earlier run of the same point, if the journal holds one.
  std::optional<PointResult> earlier(const std::string& key, const Point& point) const;
  // One line, flushed to the file before this returns; throws UsageError when the write fails.
  void append(const std::string& key, const PointResult& r);

 private:
  std::filesystem::path file_;
  std::FILE* out_ = nullptr;
  std::map<std::string, nlohmann::json> earlier_;
};

}  // namespace daekit::host::wpd
