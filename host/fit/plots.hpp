// Each experiment's measurements (error bars of one sigma) against the fitted model, one
// panel per observed component: DIR/ID.dat, ID.gp and ID.svg/ID.png drawn by gnuplot.
#pragma once

#include <daekit/fit/fit.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace daekit::host::fit {

// False when gnuplot failed on a script (a missing gnuplot is only a warning on `log`).
bool write_fit_plots(const std::string& dir, const daekit::fit::FitResult& result,
                     const std::vector<daekit::fit::ModelCurve>& curves, std::ostream& log);

}  // namespace daekit::host::fit
