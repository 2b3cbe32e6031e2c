// "Did you mean": the names nearest to a mistyped one, for messages. Header-only, so the
// host, the library and plugins (an FMU's variable names) suggest alike.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace daekit {

// Levenshtein distance, case-insensitive: small names, a quadratic table is fine.
inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Up to three candidates within a third of the name's length (at least 2 edits), the
// nearest first; a candidate the name is a prefix of counts as one edit away.
inline std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(name, c);
    if (c.rfind(name, 0) == 0 && name.size() >= 3) d = std::min<std::size_t>(d, 1);
    if (d <= limit) scored.emplace_back(d, c);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace daekit
