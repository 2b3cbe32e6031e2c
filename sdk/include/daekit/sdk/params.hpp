// Named parameters of a problem plugin (e.g. the Fekete particle count), with
// defaults, as the command line sets them with `--param key=value`.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "daekit/abi.h"

namespace daekit {

struct ParamDesc {
  std::string name;
  std::string default_value;
  std::string help;
};

// A ParamDesc with this name opens the set: further names are accepted and kept in
// Params::extra() for the problem to check itself (the fmu plugin's model variables,
// known only once the model is read). Its help text is what `daekit info` shows for them.
inline const char* const open_parameters = "*";

class Params {
 public:
  Params() = default;

  // Defaults from `descs`, overridden by `given`; an unknown key is an error naming the valid
  // ones, unless `descs` holds the open_parameters entry, or unless `defer_unknown`: then it
  // is kept in pending() for the SDK to match against the problem's real parameters
  // (ProblemInfo::parameters, known once the problem is made) and to refuse there.
  Params(const std::vector<ParamDesc>& descs, const std::map<std::string, std::string>& given,
         bool defer_unknown = false) {
    bool open = false;
    for (const auto& d : descs) {
      if (d.name == open_parameters)
        open = true;
      else
        values_[d.name] = d.default_value;
    }
    for (const auto& [key, value] : given) {
      if (!values_.count(key) && open) {
        extra_[key] = value;
        continue;
      }
      if (!values_.count(key) && defer_unknown) {
        pending_[key] = value;
        continue;
      }
      if (!values_.count(key)) {
        std::string valid;
        for (const auto& d : descs) valid += (valid.empty() ? "" : ", ") + d.name;
        throw std::invalid_argument("unknown parameter '" + key + "'" +
                                    (valid.empty() ? std::string(" (this problem has none)")
                                                   : " (valid: " + valid + ")"));
      }
      values_[key] = value;
    }
  }

  const std::string& text(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw std::invalid_argument("no parameter '" + key + "'");
    return it->second;
  }

  double real(const std::string& key) const {
    const std::string& s = text(key);
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || errno != 0)
      throw std::invalid_argument("parameter '" + key + "' must be a number, got '" + s + "'");
    return v;
  }

  long integer(const std::string& key) const {
    const std::string& s = text(key);
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(s.c_str(), &end, 10);
    if (end == s.c_str() || *end != '\0' || errno != 0)
      throw std::invalid_argument("parameter '" + key + "' must be an integer, got '" + s + "'");
    return v;
  }

  // "0"/"1", "false"/"true", "no"/"yes", "off"/"on".
  bool flag(const std::string& key) const {
    const std::string& s = text(key);
    if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
    if (s == "0" || s == "false" || s == "no" || s == "off") return false;
    throw std::invalid_argument("parameter '" + key + "' must be 0 or 1 (or true/false), got '" + s + "'");
  }

  const std::map<std::string, std::string>& all() const { return values_; }
  // Given names beyond the declared ones (only with open_parameters).
  const std::map<std::string, std::string>& extra() const { return extra_; }
  // Given names that are not string parameters, with defer_unknown.
  const std::map<std::string, std::string>& pending() const { return pending_; }

  // The host's log (dk_host::log): level 0 a note (shown with --verbose), 1 a warning.
  void set_host(const dk_host* host) { host_ = host; }
  const dk_host* host() const { return host_; }
  void log(int level, const std::string& message) const {
    if (host_ && host_->log) host_->log(host_->env, level, message.c_str());
  }
  // The MPI ranks a problem created now may spread its rows over (ABI 1.3, part E): the
  // host's communicator as MPI_Comm_c2f's integer, this rank and their number. One rank
  // (communicator -1) from a serial run or a host that predates them.
  struct Ranks {
    std::int64_t communicator = -1;
    int rank = 0, size = 1;
  };
  Ranks ranks() const {
    if (!host_ || !DK_HAS_FIELD(host_, dk_host, mpi_size) || host_->mpi_comm_f == -1 || host_->mpi_size < 1) return {};
    return {host_->mpi_comm_f, host_->mpi_rank, host_->mpi_size};
  }

 private:
  std::map<std::string, std::string> values_, extra_, pending_;
  const dk_host* host_ = nullptr;
};

}  // namespace daekit
