// Helpers for problems taken from the IVP Test Set: their embedded data files
// (initial values, references) with the size checked, and the reference with its
// provenance as the catalog's header states it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "daekit/sdk/data_text.hpp"
#include "daekit/sdk/problem.hpp"

namespace daekit {

// The numbers of an embedded data file, which must hold exactly n of them.
inline DataFile testset_data(std::string_view text, std::string_view file, std::size_t n) {
  DataFile data = parse_data_text(text, file);
  if (data.values.size() != n)
    throw std::runtime_error(std::string(file) + " holds " + std::to_string(data.values.size()) +
                             " values, expected " + std::to_string(n));
  return data;
}

// The reference at info.tend from an embedded `.ref` file of info.n values.
inline void use_testset_reference(ProblemInfo& info, std::string_view text, std::string_view file) {
  const DataFile ref = testset_data(text, file, info.n);
  info.reference = ref.values;
  info.reference_t = info.tend;
  info.reference_source = "IVP Test Set 2.4 (" + ref.comment_field("reference computed with") + ")";
}

// "y1" ... "yn".
inline std::vector<std::string> numbered_names(const std::string& stem, std::size_t n) {
  std::vector<std::string> names;
  for (std::size_t i = 1; i <= n; ++i) names.push_back(numbered(stem, i));
  return names;
}

}  // namespace daekit
