// The sweep's time estimate (host/wpd/cost_model.hpp): per-series trends, not one average.
#include <catch2/catch.hpp>

#include "../../host/wpd/cost_model.hpp"

using daekit::host::wpd::CostModel;

TEST_CASE("the sweep's estimate follows each series' cost trend over the tolerances") {
  CostModel model;
  CHECK_FALSE(model.predict("a", 1e-6));  // nothing finished: unknown
  // Series a doubles per decade; series b is ten times as expensive and flat.
  model.add("a", 1e-4, 1.0);
  model.add("a", 1e-5, 2.0);
  model.add("a", 1e-6, 4.0);
  model.add("b", 1e-4, 10.0);
  model.add("b", 1e-5, 10.0);
  CHECK(*model.predict("a", 1e-8) == Approx(16.0).epsilon(1e-9));  // extrapolated along a's trend
  CHECK(*model.predict("b", 1e-8) == Approx(10.0).epsilon(1e-9));
  // One finished point: the others' median slope carries it (here a's doubling, b's 1: the
  // upper median of {ln 2, 0} is ln 2).
  model.add("c", 1e-4, 3.0);
  CHECK(*model.predict("c", 1e-6) == Approx(12.0).epsilon(1e-9));
  // A series with nothing finished: the median of all finished times.
  CHECK(*model.predict("d", 1e-6) == Approx(4.0).epsilon(1e-9));
  // Cost that falls with tighter tolerances is noise, never extrapolated downwards.
  CostModel noisy;
  noisy.add("x", 1e-4, 5.0);
  noisy.add("x", 1e-6, 1.0);
  CHECK(*noisy.predict("x", 1e-10) >= 1.0);
}
