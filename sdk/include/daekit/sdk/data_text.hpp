// Reading the test set's data files (".ref", ".y0") that problem plugins embed at
// build time: '#' lines are provenance comments, every other line one number.
#pragma once

#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace daekit {

struct DataFile {
  std::vector<double> values;
  std::vector<std::string> comments;  // the '#' lines, without the '#'

  // The text after "# key:" in the comments, or empty.
  std::string comment_field(std::string_view key) const {
    for (const auto& c : comments) {
      auto pos = c.find(key);
      if (pos != std::string::npos && c.compare(pos + key.size(), 1, ":") == 0) {
        std::string v = c.substr(pos + key.size() + 1);
        auto first = v.find_first_not_of(' ');
        return first == std::string::npos ? std::string() : v.substr(first);
      }
    }
    return {};
  }
};

inline DataFile parse_data_text(std::string_view text, std::string_view what) {
  DataFile out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      out.comments.push_back(line.substr(first + 1));
      continue;
    }
    char* end = nullptr;
    double v = std::strtod(line.c_str() + first, &end);
    if (end == line.c_str() + first)
      throw std::runtime_error(std::string(what) + ": not a number: '" + line + "'");
    out.values.push_back(v);
  }
  return out;
}

}  // namespace daekit
