#include "daekit/api/sweep_settings.hpp"

#include <cmath>
#include <cstdlib>

#include "daekit/api/discovery.hpp"

namespace daekit::api {
namespace {

double parse_positive(const std::string& s, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !(v > 0) || !std::isfinite(v))
    throw UsageError(what + ": expected a positive number, got '" + s + "'");
  return v;
}

}  // namespace

std::vector<double> parse_tolerances(const std::string& spec, const std::string& what) {
  std::vector<double> tols;
  if (spec.find(':') == std::string::npos) {
    for (const auto& item : split_list(spec, ',')) tols.push_back(parse_positive(item, what));
  } else {
    const auto parts = split_list(spec, ':');
    if (parts.size() < 2 || parts.size() > 3) throw UsageError(what + " expects FROM:TO[:PER_DECADE]");
    const double from = parse_positive(parts[0], what), to = parse_positive(parts[1], what);
    const double per_decade = parts.size() == 3 ? parse_positive(parts[2], what + " per decade") : 1.0;
    // A fraction per decade would round to fewer points than the span covers.
    if (per_decade != std::round(per_decade) || per_decade > 100)
      throw UsageError(what + ": points per decade must be a whole number from 1 to 100, got " + parts[2]);
    const double decades = std::log10(from / to);
    const int steps = static_cast<int>(std::round(std::abs(decades) * per_decade));
    for (int k = 0; k <= steps; ++k)
      tols.push_back(std::pow(10.0, std::log10(from) - (steps ? decades * k / steps : 0.0)));
  }
  if (tols.empty()) throw UsageError(what + " gives no tolerance");
  return tols;
}

}  // namespace daekit::api
