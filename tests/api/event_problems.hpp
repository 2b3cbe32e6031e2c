// Problems with events whose solutions and derivatives are known in closed form, for the
// sensitivity and adjoint tests: a bouncing ball with real parameters (root events, a reset
// that depends on p), a dose at a fixed time (a time event), a root that switches the
// equations without moving y (a mode the problem keeps), and an index-1 DAE dosed when its
// algebraic component falls to a threshold (re-initialisation).
#pragma once

#include <cmath>
#include <daekit/daekit.hpp>
#include <limits>

namespace event_problems {

class Ball : public daekit::Problem {
 public:
  explicit Ball(bool with_reset_derivatives) : derivatives_(with_reset_derivatives) {
    info_.name = "ball_sens";
    info_.title = "bouncing ball with real parameters e, g";
    info_.n = 2;
    info_.tend = 6.0;
    info_.component_names = {"x", "v"};
    info_.roots = {{"floor", DK_ROOT_FALLING, false}};
    info_.parameters = {{"e", 0.8, 0.0}, {"g", 9.81, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y << 10.0, 1.5; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << y[1], -p(1);
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g[0] = y[0];
    return daekit::Eval::ok;
  }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector y) override {
    y[0] = 0.0;  // on the floor, whatever side of it the located time left it
    y[1] = -p(0) * y[1];
    return daekit::EventAction::proceed;
  }
  daekit::Eval event_derivatives(const daekit::Event&, daekit::ConstVector y, daekit::MatrixView dRdy,
                                 daekit::MatrixView dRdp) override {
    if (!derivatives_) return daekit::Eval::not_provided;
    dRdy(1, 1) = -p(0);
    dRdp(1, 0) = -y[1];
    return daekit::Eval::ok;
  }

 private:
  bool derivatives_;
};

// y' = -k y with a dose y += D at t = 1 (a time event): y = y0 e^{-kt}, then
// (y0 e^{-k} + D) e^{-k(t-1)}.
class Dose : public daekit::Problem {
 public:
  Dose() {
    info_.name = "dose_sens";
    info_.title = "decay with a dose at t = 1";
    info_.n = 1;
    info_.tend = 2.5;
    info_.time_events = true;
    info_.parameters = {{"k", 0.9, 0.0}, {"D", 0.6, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 1.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0];
    return daekit::Eval::ok;
  }
  double next_time_event(double t) override { return t < 1.0 ? 1.0 : std::numeric_limits<double>::infinity(); }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector y) override {
    y[0] += p(1);
    return daekit::EventAction::proceed;
  }
  daekit::Eval event_derivatives(const daekit::Event&, daekit::ConstVector, daekit::MatrixView dRdy,
                                 daekit::MatrixView dRdp) override {
    dRdy(0, 0) = 1.0;
    dRdp(0, 1) = 1.0;
    return daekit::Eval::ok;
  }
};

// y' = a until y reaches 1, then y' = b (on_event switches the mode, y stays):
// t* = (1 - y0)/a, y = 1 + b (t - t*) after.
class Switch : public daekit::Problem {
 public:
  Switch() {
    info_.name = "switch_sens";
    info_.title = "a slope that changes when y reaches 1";
    info_.n = 1;
    info_.tend = 2.0;
    info_.roots = {{"one", DK_ROOT_RISING, false}};
    info_.parameters = {{"a", 1.25, 0.0}, {"b", -0.5, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 0.2; }
  daekit::Eval rhs(double, daekit::ConstVector, daekit::Vector f) override {
    f[0] = switched_ ? p(1) : p(0);
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g[0] = y[0] - 1.0;
    return daekit::Eval::ok;
  }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector) override {
    switched_ = true;
    return daekit::EventAction::proceed;
  }

 private:
  bool switched_ = false;
};

// y1' = -k y2 / a, 0 = y2 - a y1 (index 1, y1(0) = 1; y1' = -k y1 on the constraint); when
// y2 falls to c, a dose y1 += D and re-initialisation (y2 re-solved): t* = ln(a / c)/k,
// then y1 = (c/a + D) e^{-k(t - t*)}, y2 = a y1. The root watches the algebraic y2 (its
// rate there is the constraint's), and y1' reads y2, so s's algebraic row after the reset
// (which the jump alone leaves inconsistent) feeds the differential one.
class DaeDose : public daekit::Problem {
 public:
  DaeDose() {
    info_.name = "dae_dose_sens";
    info_.title = "an index-1 DAE dosed when its algebraic component falls to c";
    info_.n = 2;
    info_.tend = 1.5;
    info_.mass = daekit::MassKind::constant;
    info_.differential = {1, 0};
    info_.component_names = {"y1", "y2"};
    info_.roots = {{"threshold", DK_ROOT_FALLING, false}};
    info_.parameters = {{"k", 0.7, 0.0}, {"a", 2.0, 0.0}, {"c", 1.0, 0.0}, {"D", 0.4, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y << 1.0, p(1); }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << -p(0) * y[1] / p(1), y[1] - p(1) * y[0];
    return daekit::Eval::ok;
  }
  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    m.setZero();
    m(0, 0) = 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g[0] = y[1] - p(2);
    return daekit::Eval::ok;
  }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector y) override {
    y[0] += p(3);
    return daekit::EventAction::reinit;
  }
  daekit::Eval event_derivatives(const daekit::Event&, daekit::ConstVector, daekit::MatrixView dRdy,
                                 daekit::MatrixView dRdp) override {
    dRdy.setIdentity();
    dRdp(0, 3) = 1.0;
    return daekit::Eval::ok;
  }
};

}  // namespace event_problems
