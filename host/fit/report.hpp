// The report of a fit: JSON (--report json, --output) and the text summary.
#pragma once

#include <daekit/fit/fit.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "request.hpp"

namespace daekit::host::fit {

nlohmann::json fit_to_json(const daekit::fit::FitResult& result, const FitRequest& request);
void print_fit(const daekit::fit::FitResult& result, const FitRequest& request, std::ostream& out);

}  // namespace daekit::host::fit
