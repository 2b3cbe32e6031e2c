// An FMU (FMI 2.0 or 3.0, model exchange) as a daekit problem: its continuous states are
// y, its derivatives f (an ODE, identity mass), its event indicators root functions in
// both directions, its time events (nextEventTime) time events; completedIntegratorStep
// follows every accepted step when the FMU asks for it, and every event runs the
// standard's event iteration (newDiscreteStates / updateDiscreteStates until settled), with
// the states the FMU changes handed back to the solver. The Jacobian comes from the FMU's
// directional derivatives (column by column, in the pattern of ModelStructure's
// dependencies when it gives them); without them solvers difference, in that pattern.
#include <daekit/sdk/export_problem.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model_description.hpp"
#include "model_exchange.hpp"
#include "unpacked_archive.hpp"
#include "variable_settings.hpp"

namespace {

using daekit::Eval;
using daekit::fmu::ModelExchange;
namespace fs = std::filesystem;

// More event iterations at one instant than this is a model that does not settle.
constexpr int max_event_iterations = 1000;

const char* const usage =
    "fmu: give the FMU with --param file=Model.fmu (an FMI 2.0 or 3.0 model-exchange archive); further "
    "parameters: tend=T (default: the FMU's DefaultExperiment stopTime), jacobian=auto|directional|differences, "
    "and NAME=VALUE for any of the model's parameters and start values, by their names in modelDescription.xml";

class FmuProblem : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"file", "", "the FMU: a .fmu archive, FMI 2.0 or 3.0 model exchange, binary for x86_64 Linux"},
            {"tend", "", "end of the span (default: the FMU's DefaultExperiment stopTime, else 1)"},
            {"jacobian", "auto",
             "auto (the FMU's directional derivatives when it provides them, else differences), directional, "
             "differences"},
            {daekit::open_parameters, "",
             "NAME=VALUE: a parameter or start value of the model by its name in modelDescription.xml (causality "
             "and variability are checked)"}};
  }

  explicit FmuProblem(const daekit::Params& p) : host_(p.host()) {
    const std::string file = p.text("file");
    if (file.empty()) throw std::invalid_argument(usage);
    archive_ = std::make_unique<daekit::fmu::UnpackedArchive>(file);
    const fs::path description = archive_->folder() / "modelDescription.xml";
    if (!fs::is_regular_file(description))
      throw std::runtime_error(file + " has no modelDescription.xml at its root: not an FMU");
    md_ = daekit::fmu::read_model_description(description);
    if (md_.states.empty())
      throw std::runtime_error("the FMU '" + md_.model_name +
                               "' has no continuous states: there is nothing for a solver to integrate");
    settings_ = daekit::fmu::parse_variable_settings(md_, p.extra());
    const std::string jacobian = p.text("jacobian");
    if (jacobian != "auto" && jacobian != "directional" && jacobian != "differences")
      throw std::invalid_argument("fmu: jacobian must be auto, directional or differences, not '" + jacobian + "'");
    if (jacobian == "directional" && !md_.directional_derivatives)
      throw std::invalid_argument("fmu: jacobian=directional, but the FMU '" + md_.model_name +
                                  "' provides no directional derivatives");
    directional_ = md_.directional_derivatives && jacobian != "differences";
    fmu_ = daekit::fmu::open_model_exchange(md_, archive_->folder(), [this](int level, const std::string& line) {
      if (host_ && host_->log) host_->log(host_->env, level, line.c_str());
    });
    initialise();

    const std::size_t n = md_.states.size();
    for (std::size_t i = 0; i < n; ++i) {
      state_refs_.push_back(md_.variables[md_.states[i]].value_reference);
      derivative_refs_.push_back(md_.variables[md_.derivatives[i]].value_reference);
    }
    column_.resize(n);  // jacobian()'s scratch, sized once
    auto& in = info_;
    in.name = "fmu";
    in.title = "FMU '" + md_.model_name + "' (FMI " + md_.fmi_version + " model exchange, " +
               fs::path(file).filename().string() + ")";
    in.n = n;
    in.t0 = md_.start_time;
    in.tend = p.text("tend").empty() ? (md_.stop_time_given ? md_.stop_time : md_.start_time + 1.0) : p.real("tend");
    if (!(in.tend > in.t0)) throw std::invalid_argument("fmu: tend must lie after the FMU's start time");
    in.rtol_hint = md_.tolerance > 0.0 ? md_.tolerance : 0.0;
    for (std::size_t i = 0; i < n; ++i) in.component_names.push_back(md_.variables[md_.states[i]].name);
    // Every other scalar the FMU can be asked for is an output (--output-vars): its outputs,
    // locals, derivatives and parameters; time is the output's own column.
    std::vector<bool> is_state(md_.variables.size(), false);
    for (std::size_t vi : md_.states) is_state[vi] = true;
    for (std::size_t vi = 0; vi < md_.variables.size(); ++vi) {
      const auto& v = md_.variables[vi];
      if (is_state[vi] || v.is_array || v.type == daekit::fmu::Variable::Type::other || v.causality == "independent")
        continue;
      in.outputs.push_back(v.name);
      output_variables_.push_back(vi);
    }
    for (std::size_t k = 0; k < md_.event_indicators; ++k)
      in.roots.push_back({"indicator " + std::to_string(k + 1), DK_ROOT_BOTH, false});
    in.time_events = true;  // nextEventTime may appear at any event
    in.step_notification = md_.completed_step_needed;
    in.analytic_jacobian = directional_;
    if (md_.dependencies_known) {
      in.jac_col_ptr.assign(1, 0);
      std::vector<std::vector<std::int32_t>> rows(n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j : md_.dependencies[i]) rows[j].push_back(static_cast<std::int32_t>(i));
      for (std::size_t j = 0; j < n; ++j) {
        std::sort(rows[j].begin(), rows[j].end());
        in.jac_row_idx.insert(in.jac_row_idx.end(), rows[j].begin(), rows[j].end());
        in.jac_col_ptr.push_back(static_cast<std::int32_t>(in.jac_row_idx.size()));
      }
      in.jacobian_pattern_only = !directional_;  // solvers difference in the pattern
    }
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    if (events_seen_) {  // a second solve on this instance starts from the FMU's start again
      check(fmu_->reset(), "resetting the FMU");
      initialise();
    }
    y = y0_;
  }

  Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    return outcome(fmu_->get_derivatives(f.data(), static_cast<std::size_t>(f.size())));
  }

  Eval roots(double t, daekit::ConstVector y, daekit::Vector g) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    return outcome(fmu_->get_event_indicators(g.data(), static_cast<std::size_t>(g.size())));
  }

  // Column j of df/dy is the derivatives' sensitivity to state j alone.
  Eval jacobian(double t, daekit::ConstVector y, daekit::MatrixView j) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    const double seed = 1.0;
    for (Eigen::Index col = 0; col < j.cols(); ++col) {
      if (const Eval e = outcome(fmu_->directional_derivative(derivative_refs_.data(), derivative_refs_.size(),
                                                              &state_refs_[static_cast<std::size_t>(col)], 1, &seed,
                                                              column_.data()));
          e != Eval::ok)
        return e;
      for (Eigen::Index row = 0; row < j.rows(); ++row) j(row, col) = column_[static_cast<std::size_t>(row)];
    }
    return Eval::ok;
  }

  // The same, asking only for the rows of each column's pattern.
  Eval jacobian_sparse(double t, daekit::ConstVector y, daekit::Vector values) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    const double seed = 1.0;
    const auto& cols = info_.jac_col_ptr;
    for (std::size_t col = 0; col + 1 < cols.size(); ++col) {
      const auto begin = static_cast<std::size_t>(cols[col]), end = static_cast<std::size_t>(cols[col + 1]);
      if (begin == end) continue;
      unknowns_.clear();
      for (std::size_t k = begin; k < end; ++k)
        unknowns_.push_back(derivative_refs_[static_cast<std::size_t>(info_.jac_row_idx[k])]);
      if (const Eval e = outcome(fmu_->directional_derivative(unknowns_.data(), unknowns_.size(), &state_refs_[col], 1,
                                                              &seed, values.data() + begin));
          e != Eval::ok)
        return e;
    }
    return Eval::ok;
  }

  // At an output point: the FMU at (t, y), then its getters (the FMU computes what they
  // need; its discrete values are those of the mode the point belongs to).
  Eval outputs(double t, daekit::ConstVector y, std::span<const std::uint32_t> which, daekit::Vector values) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    for (std::size_t k = 0; k < which.size(); ++k)
      if (const Eval e = outcome(fmu_->get_value(md_.variables[output_variables_[which[k]]], &values[static_cast<Eigen::Index>(k)]));
          e != Eval::ok)
        return e;
    return Eval::ok;
  }

  double next_time_event(double t) override {
    return next_event_time_ > t ? next_event_time_ : std::numeric_limits<double>::infinity();
  }

  // Root, time and step events alike: the FMU's event mode at (t, y), its event iteration,
  // and back to continuous time with the states it may have changed.
  daekit::EventAction on_event(const daekit::Event& event, daekit::Vector y) override {
    events_seen_ = true;
    check(set_point(event.t, daekit::ConstVector(y.data(), y.size())), "setting the state at the event");
    check(fmu_->enter_event_mode(), "entering event mode");
    const bool terminate = iterate_events();
    check(fmu_->enter_continuous_time_mode(), "entering continuous-time mode");
    check(fmu_->get_states(y.data(), static_cast<std::size_t>(y.size())), "reading the states after the event");
    return terminate ? daekit::EventAction::stop : daekit::EventAction::proceed;
  }

  daekit::EventAction step_completed(double t, daekit::ConstVector y) override {
    events_seen_ = true;
    check(set_point(t, y), "setting the state after the step");
    bool enter_event_mode = false, terminate = false;
    check(fmu_->completed_integrator_step(&enter_event_mode, &terminate), "completing the step");
    if (terminate) return daekit::EventAction::stop;
    return enter_event_mode ? daekit::EventAction::handle : daekit::EventAction::proceed;
  }

 private:
  // Start values and parameters, initialisation mode, the event iteration at t0: the state
  // the integration starts from.
  void initialise() {
    for (const auto& s : settings_) check(daekit::fmu::apply(*fmu_, s), "setting " + s.variable->name);
    check(fmu_->initialise(md_.start_time), "initialising the FMU");
    next_event_time_ = std::numeric_limits<double>::infinity();
    if (iterate_events())
      throw std::runtime_error("the FMU '" + md_.model_name + "' asked to terminate during its initialisation");
    check(fmu_->enter_continuous_time_mode(), "entering continuous-time mode");
    y0_.resize(static_cast<Eigen::Index>(md_.states.size()));
    check(fmu_->get_states(y0_.data(), md_.states.size()), "reading the initial states");
    events_seen_ = false;
  }

  // newDiscreteStates until the FMU needs no more; true when it asks to terminate.
  bool iterate_events() {
    ModelExchange::DiscreteUpdate update;
    for (int k = 0; k < max_event_iterations; ++k) {
      check(fmu_->update_discrete_states(&update), "the event iteration");
      if (update.terminate) return true;
      next_event_time_ = update.next_time_defined ? update.next_time : std::numeric_limits<double>::infinity();
      if (!update.again) return false;
    }
    throw std::runtime_error("the FMU '" + md_.model_name + "' did not settle in " +
                             std::to_string(max_event_iterations) + " event iterations");
  }

  Eval set_point(double t, daekit::ConstVector y) {
    if (const Eval e = outcome(fmu_->set_time(t)); e != Eval::ok) return e;
    return outcome(fmu_->set_states(y.data(), static_cast<std::size_t>(y.size())));
  }

  // fmiDiscard: the FMU cannot evaluate here (a solver retries with a smaller step).
  Eval outcome(ModelExchange::Result r) {
    if (r == ModelExchange::Result::ok) return Eval::ok;
    error_ = fmu_->error();
    return r == ModelExchange::Result::discard ? Eval::recoverable : Eval::fatal;
  }
  void check(ModelExchange::Result r, const std::string& what) {
    if (r != ModelExchange::Result::ok) throw std::runtime_error(what + ": " + fmu_->error());
  }
  void check(Eval e, const std::string& what) {
    if (e != Eval::ok) throw std::runtime_error(what + ": " + error_);
  }

  const dk_host* host_;
  std::unique_ptr<daekit::fmu::UnpackedArchive> archive_;  // outlives the binary loaded from it
  daekit::fmu::ModelDescription md_;
  std::vector<daekit::fmu::VariableSetting> settings_;
  std::unique_ptr<ModelExchange> fmu_;
  bool directional_ = false, events_seen_ = false;
  std::vector<std::uint32_t> state_refs_, derivative_refs_, unknowns_;
  std::vector<double> column_;
  std::vector<std::size_t> output_variables_;  // per output, its index in md_.variables
  Eigen::VectorXd y0_;
  double next_event_time_ = std::numeric_limits<double>::infinity();
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(FmuProblem, fmu, "0.1.0",
                      "an FMU (FMI 2.0/3.0 model exchange) as a problem: --param file=Model.fmu; states, events, "
                      "directional derivatives")
