// Named parameters of a problem plugin (e.g. the Fekete particle count), with
// defaults, as the command line sets them with `--param key=value`.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace daekit {

struct ParamDesc {
  std::string name;
  std::string default_value;
  std::string help;
};

class Params {
 public:
  Params() = default;

  // Defaults from `descs`, overridden by `given`; an unknown key is an error naming the valid ones.
  Params(const std::vector<ParamDesc>& descs, const std::map<std::string, std::string>& given) {
    for (const auto& d : descs) values_[d.name] = d.default_value;
    for (const auto& [key, value] : given) {
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

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace daekit
