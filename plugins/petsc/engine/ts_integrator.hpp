// One PETSc TS, stepped one step at a time by the core's one-step loop
// (numerics/one_step_loop.hpp, its Backend): TS's own step-size control (TSAdapt) with our
// rtol and atol per component, stop times as TS's final time with the last step matched,
// output and root functions on TSInterpolate, restarts (breakpoints, events) by
// TSRestartStep. The state lives in TS's vector; state() is its copy, written back before
// a restart.
#pragma once

#include <petscts.h>

#include <Eigen/Core>
#include <daekit/numerics/consistency.hpp>
#include <daekit/sdk/solver.hpp>
#include <string>

#include "../options.hpp"
#include "ts_model.hpp"

namespace daekit::plugins::petsc {

class TsIntegrator {
 public:
  TsIntegrator(TsModel& model, const PetscTsOptions& options) : model_(model), options_(options) {}
  ~TsIntegrator();
  TsIntegrator(const TsIntegrator&) = delete;
  TsIntegrator& operator=(const TsIntegrator&) = delete;

  // TS, SNES, KSP and PC as the options say, from (t0, y0) with first step h0; "" or why
  // not (an option PETSc refused or left unused).
  std::string start(double t0, const Eigen::VectorXd& y0, double h0);

  // The Backend of one_step_loop.
  int step(double tout, double* t);
  bool interpolate(double t, Eigen::VectorXd& out);
  Eigen::Map<Eigen::VectorXd> state() { return {y_.data(), y_.size()}; }
  void set_stop_time(double t);
  int restart(double t);
  void after_breakpoint(double t);  // the next step as a first step (ts_integrator.cpp)
  long steps() const;
  double last_step() const;
  double current_step() const;
  int tstop_return() const { return 1; }
  Status status_of(int flag) const;
  std::string flag_name(int flag) const;
  std::string message() const { return message_; }
  std::string model_failures() const { return model_.problem().failure_summary(); }
  RestartOutcome reset(double t, const EventRestart& cause);
  int dense_degree() const;
  void copy_derivative(Eigen::VectorXd& out) const { out.resize(0); }
  int roll_back(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double h);

  void add_stats(Stats& s) const;

 private:
  void start_afresh(double t, const Eigen::VectorXd& yp);  // after_breakpoint's, with y'(t) known
  void to_ts();    // y_ into TS's solution
  void from_ts();  // TS's solution into y_

  TsModel& model_;
  const PetscTsOptions& options_;
  TS ts_ = nullptr;
  Vec solution_ = nullptr, work_ = nullptr, atol_ = nullptr, rtol_ = nullptr;
  PetscOptions database_ = nullptr;  // this solve's own PETSc options (petsc_options)
  Eigen::VectorXd y_;
  double stop_ = 0.0;
  TSConvergedReason reason_ = TS_CONVERGED_ITERATING;
  PetscErrorCode error_ = 0;  // the PETSc error that ended the last step
  std::string message_;
};

}  // namespace daekit::plugins::petsc
