// The time-dependent coefficients of the EMEP MSC-W ozone chemistry (IVP Test Set
// `emep`): thermal rate constants at 298 K, photolysis rates from the solar zenith
// angle at 50 degrees north (zero at night), the water vapour concentration from the
// diurnal humidity, dry deposition (weaker at night), and the emissions.
#pragma once

#include <array>

namespace emep {

constexpr int species = 66;
constexpr double mixing_height = 1.2e5;  // cm

struct Coefficients {
  std::array<double, 267> rc{};  // rc[k]: the test set's RC(k), 1-based; unused ones stay 0
  std::array<double, 17> dj{};   // dj[k]: photolysis rate DJ(k), 1-based
  double h2o = 0.0;              // water vapour, molecules / cm^3
};

// The coefficients at time t (seconds; t = 0 is midnight of the first day).
Coefficients coefficients_at(double t);

// Emissions of the emitted species, molecules / (cm^2 s); the rates of change divide
// them by the mixing height (a well-mixed boundary layer).
struct Emissions {
  double no, so2, co, c2h6, nc4h10, c2h4, c3h6, oxyl, c2h5oh, isoprene;
};
const Emissions& emissions();

}  // namespace emep
