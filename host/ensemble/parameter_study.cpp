#include "parameter_study.hpp"

#include <charconv>
#include <cmath>
#include <random>
#include <set>
#include <sstream>

#include "../cli.hpp"

namespace daekit::host::ensemble {
namespace {

double number(const std::string& s, const std::string& spec) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || *end != '\0' || !std::isfinite(v))
    throw UsageError("'" + spec + "': '" + s + "' is not a finite number");
  return v;
}

// Empty items kept (unlike split_list): an empty number in a list is an error here.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::stringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

std::pair<std::string, std::string> key_and_rest(const std::string& spec, const char* option) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw UsageError(std::string(option) + " expects KEY=..., got '" + spec + "'");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

// A double in [0, 1) from the top 53 bits of one draw: the same on every platform.
double unit(std::mt19937_64& engine) { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }

// A standard normal by Box-Muller (two draws, one value: no state kept between members).
double standard_normal(std::mt19937_64& engine) {
  const double u1 = 1.0 - unit(engine);  // in (0, 1]: the log is finite
  const double u2 = unit(engine);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

}  // namespace

GridAxis parse_grid(const std::string& spec) {
  const auto [key, rest] = key_and_rest(spec, "--param-grid");
  GridAxis axis{key, {}};
  if (rest.find(':') == std::string::npos) {
    for (const auto& item : split(rest, ',')) axis.values.push_back(number(item, spec));
  } else {
    const auto parts = split(rest, ':');
    if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && parts[3] != "log"))
      throw UsageError("--param-grid expects KEY=FROM:TO:COUNT[:log] or KEY=a,b,c, got '" + spec + "'");
    const double from = number(parts[0], spec), to = number(parts[1], spec), count_value = number(parts[2], spec);
    if (count_value < 1 || count_value != std::round(count_value) || count_value > 1e6)
      throw UsageError("'" + spec + "': COUNT must be a whole number from 1 to 10^6");
    const auto count = static_cast<std::size_t>(count_value);
    const bool log = parts.size() == 4;
    if (log && !(from > 0 && to > 0)) throw UsageError("'" + spec + "': a log grid needs FROM and TO > 0");
    for (std::size_t k = 0; k < count; ++k) {
      const double f = count == 1 ? 0.0 : static_cast<double>(k) / static_cast<double>(count - 1);
      axis.values.push_back(log ? std::exp(std::log(from) + f * (std::log(to) - std::log(from)))
                                : from + f * (to - from));
    }
    if (count > 1) axis.values.back() = to;  // the end as given, not as rounded
  }
  if (axis.values.empty()) throw UsageError("'" + spec + "' gives no value");
  return axis;
}

RandomParameter parse_random(const std::string& spec) {
  const auto [key, rest] = key_and_rest(spec, "--param-random");
  RandomParameter p;
  p.key = key;
  p.text = rest;
  const auto open = rest.find('('), close = rest.rfind(')');
  if (open == std::string::npos || close != rest.size() - 1)
    throw UsageError("--param-random expects KEY=normal(MEAN,SD), lognormal(MU,SIGMA) or uniform(LOW,HIGH), got '" +
                     spec + "'");
  const std::string law = rest.substr(0, open);
  const auto args = split(rest.substr(open + 1, close - open - 1), ',');
  if (args.size() != 2) throw UsageError("'" + spec + "': the distribution takes two numbers");
  p.a = number(args[0], spec);
  p.b = number(args[1], spec);
  if (law == "normal") p.law = RandomParameter::Law::normal;
  else if (law == "lognormal") p.law = RandomParameter::Law::lognormal;
  else if (law == "uniform") p.law = RandomParameter::Law::uniform;
  else throw UsageError("'" + spec + "': unknown distribution '" + law + "' (normal, lognormal, uniform)");
  if (p.law != RandomParameter::Law::uniform && !(p.b >= 0)) throw UsageError("'" + spec + "': the spread must be >= 0");
  if (p.law == RandomParameter::Law::uniform && !(p.b >= p.a)) throw UsageError("'" + spec + "': needs LOW <= HIGH");
  return p;
}

std::vector<Member> make_members(const std::vector<GridAxis>& grid, const std::vector<RandomParameter>& random,
                                 std::size_t samples, std::uint64_t seed) {
  std::set<std::string> keys;
  for (const auto& a : grid)
    if (!keys.insert(a.key).second) throw UsageError("parameter '" + a.key + "' is varied twice");
  for (const auto& r : random)
    if (!keys.insert(r.key).second) throw UsageError("parameter '" + r.key + "' is varied twice");
  std::size_t grid_points = 1;
  for (const auto& a : grid) {
    grid_points *= a.values.size();
    if (grid_points * samples > 10000000) throw UsageError("the ensemble would have more than 10^7 members");
  }
  std::mt19937_64 engine(seed);
  std::vector<Member> members;
  members.reserve(grid_points * samples);
  for (std::size_t g = 0; g < grid_points; ++g) {
    Member base;
    base.grid_point = g;
    std::size_t rest = g;  // the last axis varies fastest
    for (auto a = grid.rbegin(); a != grid.rend(); ++a) {
      base.values[a->key] = a->values[rest % a->values.size()];
      rest /= a->values.size();
    }
    for (std::size_t s = 0; s < samples; ++s) {
      Member m = base;
      m.sample = s;
      for (const auto& r : random) {
        switch (r.law) {
          case RandomParameter::Law::normal: m.values[r.key] = r.a + r.b * standard_normal(engine); break;
          case RandomParameter::Law::lognormal: m.values[r.key] = std::exp(r.a + r.b * standard_normal(engine)); break;
          case RandomParameter::Law::uniform: m.values[r.key] = r.a + (r.b - r.a) * unit(engine); break;
        }
      }
      members.push_back(std::move(m));
    }
  }
  return members;
}

std::string parameter_text(double v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v);
  return std::string(text, end.ptr);
}

}  // namespace daekit::host::ensemble
