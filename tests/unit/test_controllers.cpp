#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/numerics/controller.hpp>

using namespace daekit;

TEST_CASE("the elementary controller follows safety * err^(-1/q) within its limits", "[unit][controller]") {
  IController c(5.0);
  CHECK(c.accepted(1.0, 0.5) == Approx(0.9 * std::pow(0.5, -0.2)));
  CHECK(c.accepted(1.0, 1e-12) == Approx(6.0));  // capped growth
  CHECK(c.rejected(1.0, 1e6) == Approx(0.2));    // capped shrink
  CHECK(c.rejected(1.0, 1.1) < 1.0);
}

TEST_CASE("no controller lets a rejected step grow", "[unit][controller]") {
  for (const auto& name : controller_names()) {
    auto c = make_controller(name, 4.0);
    REQUIRE(c);
    for (double err : {1.0001, 2.0, 1e3, std::nan("")}) CHECK(c->rejected(1.0, err) <= 1.0);
  }
  CHECK(make_controller("nonsense", 4.0) == nullptr);
}

TEST_CASE("the PI controller damps growth after a rising error", "[unit][controller]") {
  PIController pi(5.0);
  IController i(5.0);
  pi.accepted(1.0, 0.1);  // remembers a small error
  // Error rose from 0.1 to 0.5: PI grows less than the elementary controller.
  CHECK(pi.accepted(1.0, 0.5) < i.accepted(1.0, 0.5));
}

TEST_CASE("the predictive controller reacts to the error trend of accepted steps", "[unit][controller]") {
  PredictiveController pred(5.0);
  const double first = pred.accepted(1.0, 0.5);
  CHECK(first == Approx(0.9 * std::pow(0.5, -0.2)));
  // Error grew from 0.5 to 0.9 with the same step: Gustafsson's prediction is more cautious.
  IController i(5.0);
  CHECK(pred.accepted(1.0, 0.9) < i.accepted(1.0, 0.9));
  pred.reset();
  CHECK(pred.accepted(1.0, 0.9) == Approx(i.accepted(1.0, 0.9)));
}
