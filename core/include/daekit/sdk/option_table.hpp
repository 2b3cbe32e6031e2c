// A solver's options, each declared once: key, type, default, range and help, bound to a
// field of the solver's settings struct. The list `daekit info` shows (OptionDesc), the
// reading of a request into the settings and the range check all come from the one
// declaration, so a default cannot say one thing in the list and do another in the run.
// The default is the settings struct's own value (the struct is the one place it is
// written); the range is checked with the option named in the message.
#pragma once

#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "daekit/sdk/solver.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

// [lo, hi], either end open when `open_lo` / `open_hi`: "0 < safety <= 1" is {0, 1, true, false}.
struct OptionRange {
  double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
  bool open_lo = false, open_hi = false;

  bool contains(double v) const {
    return (open_lo ? v > lo : v >= lo) && (open_hi ? v < hi : v <= hi);
  }
  std::string text(const std::string& key) const {
    std::string s;
    if (lo > -std::numeric_limits<double>::infinity()) s += number(lo) + (open_lo ? " < " : " <= ");
    s += key;
    if (hi < std::numeric_limits<double>::infinity()) s += (open_hi ? " < " : " <= ") + number(hi);
    return s;
  }
  static std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
  }
};

inline OptionRange at_least(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, false}; }
inline OptionRange above(double lo) { return {lo, std::numeric_limits<double>::infinity(), true, false}; }
inline OptionRange between(double lo, double hi) { return {lo, hi, false, false}; }

template <class Settings>
class OptionTable {
 public:
  using Reader = std::function<bool(const SolveRequest&, Settings&, std::string* why)>;

  OptionTable& integer(const std::string& key, int Settings::*field, OptionRange range, std::string help) {
    return add(key, "int", [field](const Settings& s) { return std::to_string(s.*field); }, std::move(help),
               [key, field, range](const SolveRequest& r, Settings& s, std::string* why) {
                 const long v = r.extra_int(key, s.*field);
                 if (!range.contains(static_cast<double>(v))) return out_of(range, key, std::to_string(v), why);
                 s.*field = static_cast<int>(v);
                 return true;
               });
  }

  OptionTable& real(const std::string& key, double Settings::*field, OptionRange range, std::string help) {
    return add(key, "real", [field](const Settings& s) { return OptionRange::number(s.*field); }, std::move(help),
               [key, field, range](const SolveRequest& r, Settings& s, std::string* why) {
                 const double v = r.extra_real(key, s.*field);
                 if (!range.contains(v)) return out_of(range, key, OptionRange::number(v), why);
                 s.*field = v;
                 return true;
               });
  }

  OptionTable& flag(const std::string& key, bool Settings::*field, std::string help) {
    return add(key, "bool", [field](const Settings& s) { return std::string(s.*field ? "true" : "false"); },
               std::move(help), [key, field](const SolveRequest& r, Settings& s, std::string*) {
                 s.*field = r.extra_bool(key, s.*field);
                 return true;
               });
  }

  // Free text, passed on as given (an engine's own option syntax).
  OptionTable& text(const std::string& key, std::string Settings::*field, std::string help) {
    return add(key, "string", [field](const Settings& s) { return s.*field; }, std::move(help),
               [key, field](const SolveRequest& r, Settings& s, std::string*) {
                 if (const auto it = r.extra.find(key); it != r.extra.end()) s.*field = it->second;
                 return true;
               });
  }

  // One of named values; the field may be any type (an enum, a string), each name bound to a value.
  template <class T>
  OptionTable& choice(const std::string& key, T Settings::*field, std::vector<std::pair<std::string, T>> values,
                      std::string help) {
    std::string type = "choice:";
    for (std::size_t i = 0; i < values.size(); ++i) type += (i ? "|" : "") + values[i].first;
    return add(key, type,
               [field, values](const Settings& s) {
                 for (const auto& [name, value] : values)
                   if (value == s.*field) return name;
                 return std::string("?");
               },
               std::move(help),
               [key, field, values](const SolveRequest& r, Settings& s, std::string* why) {
                 const auto it = r.extra.find(key);
                 if (it == r.extra.end()) return true;
                 for (const auto& [name, value] : values)
                   if (name == it->second) {
                     s.*field = value;
                     return true;
                   }
                 if (why) *why = "option '" + key + "' has no value '" + it->second + "'";
                 return false;
               });
  }

  // Rows declared elsewhere and read there (the IterationMatrix's), listed with these.
  OptionTable& listed(std::vector<OptionDesc> rows) {
    for (auto& row : rows) listed_.push_back(std::move(row));
    return *this;
  }

  // The list for the solver's description, with the defaults of `defaults`.
  std::vector<OptionDesc> describe(const Settings& defaults = Settings{}) const {
    std::vector<OptionDesc> out;
    for (const auto& e : entries_) out.push_back({e.key, e.type, e.default_text(defaults), e.help});
    for (const auto& row : listed_) out.push_back(row);
    return out;
  }

  // The request's options into `s` (its fields hold the defaults on entry); false with why
  // (the option and its range) when one is out of range.
  bool read(const SolveRequest& request, Settings& s, std::string* why) const {
    for (const auto& e : entries_)
      if (!e.read(request, s, why)) return false;
    return true;
  }

 private:
  struct Entry {
    std::string key, type;
    std::function<std::string(const Settings&)> default_text;
    std::string help;
    Reader read;
  };

  OptionTable& add(const std::string& key, std::string type, std::function<std::string(const Settings&)> default_text,
                   std::string help, Reader read) {
    entries_.push_back({key, std::move(type), std::move(default_text), std::move(help), std::move(read)});
    return *this;
  }

  static bool out_of(const OptionRange& range, const std::string& key, const std::string& value, std::string* why) {
    if (why) *why = "option " + key + " = " + value + " is out of range: needs " + range.text(key);
    return false;
  }

  std::vector<Entry> entries_;
  std::vector<OptionDesc> listed_;
};

}  // namespace daekit
