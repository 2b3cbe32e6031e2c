// An FMU (FMI 2.0 or 3.0, model exchange) as a daekit problem: its continuous states are
// y, its derivatives f (an ODE, identity mass), its event indicators root functions in
// both directions, its time events (nextEventTime) time events; completedIntegratorStep
// follows every accepted step when the FMU asks for it, and every event runs the
// standard's event iteration (newDiscreteStates / updateDiscreteStates until settled), with
// the states the FMU changes handed back to the solver. The Jacobian comes from the FMU's
// directional derivatives (column by column, in the pattern of ModelStructure's
// dependencies when it gives them); without them solvers difference, in that pattern.
// The model's real parameters (fixed or tunable) are the problem's real parameters p,
// under their names: a new value restarts the FMU from its initialisation, and df/dp and
// dg/dp come from more instances with one parameter moved (parameter_shadows.hpp).
#include <daekit/sdk/export_problem.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "input_signals.hpp"
#include "model_description.hpp"
#include "model_exchange.hpp"
#include "parameter_shadows.hpp"
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
    "input=FILE.csv (signals for the FMU's inputs), "
    "and NAME=VALUE for any of the model's parameters and start values, by their names in modelDescription.xml";

class FmuProblem : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"file", "", "the FMU: a .fmu archive, FMI 2.0 or 3.0 model exchange, binary for x86_64 Linux"},
            {"tend", "", "end of the span (default: the FMU's DefaultExperiment stopTime, else 1)"},
            {"input", "",
             "a CSV file of signals for the FMU's inputs: a column 'time', then one per input variable by name; "
             "continuous reals linear between rows, discrete inputs held from each row's time, two rows at one time "
             "a jump (as FMPy)"},
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
    settings_ = daekit::fmu::parse_variable_settings(md_, p.extra());
    if (!p.text("input").empty()) inputs_ = daekit::fmu::InputSignals(p.text("input"), md_);
    for (const auto* v : inputs_.variables())
      for (const auto& s : settings_)
        if (s.variable == v)
          throw std::invalid_argument("fmu: the input '" + v->name + "' is given twice: by --param and by " +
                                      p.text("input"));
    const std::string jacobian = p.text("jacobian");
    if (jacobian != "auto" && jacobian != "directional" && jacobian != "differences")
      throw std::invalid_argument("fmu: jacobian must be auto, directional or differences, not '" + jacobian + "'");
    if (jacobian == "directional" && !md_.directional_derivatives)
      throw std::invalid_argument("fmu: jacobian=directional, but the FMU '" + md_.model_name +
                                  "' provides no directional derivatives");
    if (jacobian == "directional" && md_.array_states)
      throw std::invalid_argument("fmu: jacobian=directional, but the FMU '" + md_.model_name +
                                  "' has array states, whose directional derivatives are seeded per array");
    // An array state's elements are seeded together by FMI 3.0's directional derivatives:
    // columns of df/dy come from differences there.
    directional_ = md_.directional_derivatives && jacobian != "differences" && !md_.array_states;
    declare_parameters();
    fmu_ = open_instance();
    initialise();

    const std::size_t n = std::max<std::size_t>(fmu_states(), 1);  // a placeholder state when it has none
    for (std::size_t i = 0; i < fmu_states(); ++i) {
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
    for (const double t : inputs_.breakpoints())
      if (t > in.t0) in.tstops.push_back(t);  // the inputs' kinks; their jumps are time events
    in.output_interval = md_.step_size;  // the command's default output: a point per stepSize, as FMPy's
    for (std::size_t i = 0; i < fmu_states(); ++i)
      in.component_names.push_back(daekit::fmu::element_name(md_.variables[md_.states[i]], md_.state_elements[i]));
    if (placeholder()) in.component_names.push_back(placeholder_name());
    // A state's nominal magnitude scales its default absolute tolerance (atol_i = rtol *
    // nominal_i, as FMPy and Dymola take it): a state of 1e-4 is not held to 1e-6 absolute.
    if (std::any_of(md_.states.begin(), md_.states.end(), [&](std::size_t v) { return md_.variables[v].nominal > 0; }))
      for (std::size_t v : md_.states) in.atol_scale.push_back(md_.variables[v].nominal > 0 ? md_.variables[v].nominal : 1.0);
    // Every other scalar the FMU can be asked for is an output (--output-vars): its outputs,
    // locals, derivatives and parameters; time is the output's own column.
    std::vector<bool> is_state(md_.variables.size(), false);
    for (std::size_t vi : md_.states) is_state[vi] = true;
    for (std::size_t vi = 0; vi < md_.variables.size(); ++vi) {
      const auto& v = md_.variables[vi];
      if (is_state[vi] || v.type == daekit::fmu::Variable::Type::other || v.causality == "independent") continue;
      for (std::size_t e = 0; e < v.size; ++e) {  // an array's elements one by one
        in.outputs.push_back(daekit::fmu::element_name(v, e));
        output_variables_.push_back({vi, e});
      }
    }
    // Named by the variables FMI 3.0 says they are; FMI 2.0 names none.
    for (std::size_t k = 0; k < md_.event_indicators; ++k)
      in.roots.push_back({k < md_.event_indicator_names.size() ? md_.event_indicator_names[k]
                                                               : "indicator " + std::to_string(k + 1),
                          DK_ROOT_BOTH, false});
    in.time_events = true;  // nextEventTime may appear at any event
    in.step_notification = md_.completed_step_needed;
    in.analytic_jacobian = directional_ || placeholder();
    if (md_.dependencies_known && !placeholder()) {
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
    // A second solve on this instance starts from the FMU's start again.
    if (events_seen_) {
      check(fmu_->reset(), "resetting the FMU");
      initialise();
    }
    shadows_.invalidate();  // they too start the solve from the start
    y = y0_;
  }

  // Fixed parameters are set only before initialisation: new values restart the FMU from
  // there at once, so that the evaluations that follow use them (the ABI's promise).
  Eval set_parameters(std::span<const double> p) override {
    if (std::equal(p.begin(), p.end(), this->p().begin(), this->p().end())) return Eval::ok;
    if (const Eval e = daekit::Problem::set_parameters(p); e != Eval::ok) return e;
    shadows_.invalidate();
    try {
      check(fmu_->reset(), "resetting the FMU");
      initialise();
    } catch (const std::exception& e) {
      return fail(std::string("the FMU did not restart with the new parameters: ") + e.what());
    }
    return Eval::ok;
  }

  Eval dfdp(double t, daekit::ConstVector y, daekit::MatrixView d) override {
    return parameter_columns(daekit::fmu::ParameterShadows::Quantity::derivatives, t, y, d);
  }

  // dg/dy by central differences in y on this instance, dg/dp from the moved instances: the
  // SDK's own differences in p would set p here, which reaches the FMU only at its restart.
  Eval roots_dgdp(double t, daekit::ConstVector y, daekit::MatrixView dgdy, daekit::MatrixView dgdp) override {
    const auto m = static_cast<std::size_t>(dgdy.rows());
    std::vector<double> plus(m), minus(m);
    moved_ = y;
    for (Eigen::Index i = 0; i < y.size(); ++i) {
      const double delta = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(y[i]), 1e-8);
      moved_[i] = y[i] + delta;
      Eval e = roots(t, daekit::ConstVector(moved_.data(), moved_.size()), daekit::Vector(plus.data(), dgdy.rows()));
      moved_[i] = y[i] - delta;
      if (e == Eval::ok) e = roots(t, daekit::ConstVector(moved_.data(), moved_.size()), daekit::Vector(minus.data(), dgdy.rows()));
      moved_[i] = y[i];
      if (e != Eval::ok) return e;
      for (std::size_t r = 0; r < m; ++r) dgdy(static_cast<Eigen::Index>(r), i) = (plus[r] - minus[r]) / (2.0 * delta);
    }
    if (dgdp.cols() == 0) return Eval::ok;
    return parameter_columns(daekit::fmu::ParameterShadows::Quantity::indicators, t, y, dgdp);
  }

  Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    if (placeholder()) {
      f.setZero();
      return Eval::ok;
    }
    return outcome(fmu_->get_derivatives(f.data(), static_cast<std::size_t>(f.size())));
  }

  Eval roots(double t, daekit::ConstVector y, daekit::Vector g) override {
    if (const Eval e = set_point(t, y); e != Eval::ok) return e;
    return outcome(fmu_->get_event_indicators(g.data(), static_cast<std::size_t>(g.size())));
  }

  // Column j of df/dy is the derivatives' sensitivity to state j alone.
  Eval jacobian(double t, daekit::ConstVector y, daekit::MatrixView j) override {
    if (placeholder()) {
      j.setZero();
      return Eval::ok;
    }
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
    for (std::size_t k = 0; k < which.size(); ++k) {
      const auto [variable, element] = output_variables_[which[k]];
      const Eval e = outcome(fmu_->get_value(md_.variables[variable], &values[static_cast<Eigen::Index>(k)], element));
      if (e != Eval::ok) return e;
    }
    return Eval::ok;
  }

  // The FMU's next time event, or the next jump of an input signal, whichever comes first.
  double next_time_event(double t) override {
    return std::min(next_event_time_ > t ? next_event_time_ : std::numeric_limits<double>::infinity(),
                    inputs_.next_jump_after(t));
  }

  // Root, time and step events alike: the FMU's event mode at (t, y), its event iteration,
  // and back to continuous time with the states it may have changed.
  daekit::EventAction on_event(const daekit::Event& event, daekit::Vector y) override {
    events_seen_ = true;
    if (shadows_.active()) check_shadows(shadows_.follow_event(event.t, y.data(), fmu_states()));
    check(set_point(event.t, daekit::ConstVector(y.data(), y.size())), "setting the state at the event");
    check(fmu_->enter_event_mode(), "entering event mode");
    check(inputs_.set_all(*fmu_, event.t), "setting the inputs at the event");
    inputs_settled_ = std::max(inputs_settled_, event.t);
    const bool terminate = iterate_events();
    check(fmu_->enter_continuous_time_mode(), "entering continuous-time mode");
    check(fmu_->get_states(y.data(), fmu_states()), "reading the states after the event");
    return terminate ? daekit::EventAction::stop : daekit::EventAction::proceed;
  }

  daekit::EventAction step_completed(double t, daekit::ConstVector y) override {
    events_seen_ = true;
    if (shadows_.active()) check_shadows(shadows_.follow_step(t, y.data(), fmu_states()));
    check(set_point(t, y), "setting the state after the step");
    bool enter_event_mode = false, terminate = false;
    check(fmu_->completed_integrator_step(&enter_event_mode, &terminate), "completing the step");
    if (terminate) return daekit::EventAction::stop;
    return enter_event_mode ? daekit::EventAction::handle : daekit::EventAction::proceed;
  }

 private:
  // The model's real scalar parameters (fixed or tunable) as real parameters, at the value
  // --param gave, else their start values.
  void declare_parameters() {
    for (std::size_t vi = 0; vi < md_.variables.size(); ++vi) {
      const auto& v = md_.variables[vi];
      if (v.causality != "parameter" || v.type != daekit::fmu::Variable::Type::real || v.is_array ||
          (v.variability != "fixed" && v.variability != "tunable") || reserved(v.name))
        continue;
      const auto given = std::find_if(settings_.begin(), settings_.end(),
                                      [&](const daekit::fmu::VariableSetting& s) { return s.variable == &v; });
      char* end = nullptr;
      const double start = v.has_start ? std::strtod(v.start.c_str(), &end) : 0.0;
      if (given == settings_.end() && (!v.has_start || end == v.start.c_str() || !std::isfinite(start))) continue;
      info_.parameters.push_back({v.name, given != settings_.end() ? given->real : start, 0.0});
      parameter_refs_.push_back(v.value_reference);
    }
  }
  // An FMU without continuous states (inputs to outputs, time events, clocks of a
  // sampled system) still needs time to advance through its events, completed steps and
  // output points: it gets one placeholder state with derivative 0, as OpenModelica gives
  // such models, so that every solver steps it; the FMU itself never sees it.
  std::size_t fmu_states() const { return md_.states.size(); }
  bool placeholder() const { return md_.states.empty(); }
  std::string placeholder_name() const {
    std::string name = "_dummy";
    while (md_.find(name)) name += "_";
    return name;
  }
  static bool reserved(const std::string& name) {
    return name == "file" || name == "tend" || name == "jacobian" || name == "input";
  }
  // At a jump of an input signal not yet handled by an event, evaluations take its left
  // limit: they belong to the step that ends there.
  bool pending_jump(double t) const { return t > inputs_settled_ && inputs_.jumps_at(t); }

  std::unique_ptr<ModelExchange> open_instance() {
    return daekit::fmu::open_model_exchange(md_, archive_->folder(), [this](int level, const std::string& line) {
      if (host_ && host_->log) host_->log(host_->env, level, line.c_str());
    });
  }

  // Start values, parameters p, initialisation mode, the event iteration at t0 and
  // continuous-time mode: where an integration starts. The next time event into *next.
  void start(ModelExchange& fmu, const std::vector<double>& p, double* next) {
    for (const auto& s : settings_) check(fmu, daekit::fmu::apply(fmu, s), "setting " + s.variable->name);
    for (std::size_t j = 0; j < p.size(); ++j)
      check(fmu, fmu.set_real(parameter_refs_[j], p[j]), "setting " + info_.parameters[j].name);
    check(fmu, inputs_.set_all(fmu, md_.start_time), "setting the inputs at the start");
    check(fmu, fmu.initialise(md_.start_time), "initialising the FMU");
    *next = std::numeric_limits<double>::infinity();
    if (iterate_events(fmu, next))
      throw std::runtime_error("the FMU '" + md_.model_name + "' asked to terminate during its initialisation");
    check(fmu, fmu.enter_continuous_time_mode(), "entering continuous-time mode");
  }

  void initialise() {
    start(*fmu_, p(), &next_event_time_);
    y0_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(std::max<std::size_t>(fmu_states(), 1)));
    check(fmu_->get_states(y0_.data(), fmu_states()), "reading the initial states");
    inputs_settled_ = md_.start_time;
    events_seen_ = false;
  }

  // newDiscreteStates until the FMU needs no more; true when it asks to terminate.
  bool iterate_events(ModelExchange& fmu, double* next) {
    ModelExchange::DiscreteUpdate update;
    for (int k = 0; k < max_event_iterations; ++k) {
      check(fmu, fmu.update_discrete_states(&update), "the event iteration");
      if (update.terminate) return true;
      *next = update.next_time_defined ? update.next_time : std::numeric_limits<double>::infinity();
      if (!update.again) return false;
    }
    throw std::runtime_error("the FMU '" + md_.model_name + "' did not settle in " +
                             std::to_string(max_event_iterations) + " event iterations");
  }
  bool iterate_events() { return iterate_events(*fmu_, &next_event_time_); }

  // d(derivatives or indicators)/dp at (t, y) from the instances with a parameter moved.
  Eval parameter_columns(daekit::fmu::ParameterShadows::Quantity what, double t, daekit::ConstVector y,
                         daekit::MatrixView out) {
    if (placeholder() && what == daekit::fmu::ParameterShadows::Quantity::derivatives) {
      out.setZero();
      return Eval::ok;
    }
    if (md_.once_per_process) {
      error_ = "the FMU '" + md_.model_name + "' can be instantiated only once per process, and derivatives with "
               "respect to its parameters need two more instances per parameter (FMI gives none in "
               "continuous-time mode)";
      return Eval::fatal;
    }
    try {
      shadows_.prepare(p());
    } catch (const std::exception& e) {
      error_ = std::string("preparing the instances for derivatives in p: ") + e.what();
      return Eval::fatal;
    }
    columns_.resize(static_cast<std::size_t>(out.rows() * out.cols()));
    const ModelExchange::Result r =
        shadows_.columns(what, t, y.data(), fmu_states(), static_cast<std::size_t>(out.rows()),
                         columns_.data());
    if (r != ModelExchange::Result::ok) {
      error_ = shadows_.error();
      return r == ModelExchange::Result::discard ? Eval::recoverable : Eval::fatal;
    }
    for (Eigen::Index j = 0; j < out.cols(); ++j)
      for (Eigen::Index i = 0; i < out.rows(); ++i) out(i, j) = columns_[static_cast<std::size_t>(j * out.rows() + i)];
    return Eval::ok;
  }
  void check_shadows(ModelExchange::Result r) {
    if (r != ModelExchange::Result::ok) throw std::runtime_error(shadows_.error());
  }

  Eval set_point(double t, daekit::ConstVector y) {
    if (const Eval e = outcome(fmu_->set_time(t)); e != Eval::ok) return e;
    if (const Eval e = outcome(inputs_.set_continuous(*fmu_, t, pending_jump(t))); e != Eval::ok) return e;
    return outcome(fmu_->set_states(y.data(), fmu_states()));
  }

  // fmiDiscard: the FMU cannot evaluate here (a solver retries with a smaller step).
  Eval outcome(ModelExchange::Result r) {
    if (r == ModelExchange::Result::ok) return Eval::ok;
    error_ = fmu_->error();
    return r == ModelExchange::Result::discard ? Eval::recoverable : Eval::fatal;
  }
  void check(ModelExchange::Result r, const std::string& what) { check(*fmu_, r, what); }
  static void check(ModelExchange& fmu, ModelExchange::Result r, const std::string& what) {
    if (r != ModelExchange::Result::ok) throw std::runtime_error(what + ": " + fmu.error());
  }
  void check(Eval e, const std::string& what) {
    if (e != Eval::ok) throw std::runtime_error(what + ": " + error_);
  }

  const dk_host* host_;
  std::unique_ptr<daekit::fmu::UnpackedArchive> archive_;  // outlives the binary loaded from it
  daekit::fmu::ModelDescription md_;
  std::vector<daekit::fmu::VariableSetting> settings_;
  daekit::fmu::InputSignals inputs_;  // from input=FILE.csv; none without it
  double inputs_settled_ = 0.0;       // the last input jump an event has handled
  std::unique_ptr<ModelExchange> fmu_;
  bool directional_ = false, events_seen_ = false;
  std::vector<std::uint32_t> parameter_refs_;  // per real parameter, its value reference
  daekit::fmu::ParameterShadows shadows_{[this] { return open_instance(); },
                                         [this](ModelExchange& fmu, const std::vector<double>& p) {
                                           double next = 0.0;
                                           start(fmu, p, &next);
                                         },
                                         [this](ModelExchange& fmu, double t, bool event) {
                                           return event ? inputs_.set_all(fmu, t)
                                                        : inputs_.set_continuous(fmu, t, pending_jump(t));
                                         }};
  std::vector<double> columns_;
  Eigen::VectorXd moved_;
  std::vector<std::uint32_t> state_refs_, derivative_refs_, unknowns_;
  std::vector<double> column_;
  std::vector<std::pair<std::size_t, std::size_t>> output_variables_;  // per output: index in md_.variables, element
  Eigen::VectorXd y0_;
  double next_event_time_ = std::numeric_limits<double>::infinity();
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(FmuProblem, fmu, "0.1.0",
                      "an FMU (FMI 2.0/3.0 model exchange) as a problem: --param file=Model.fmu; states, events, "
                      "directional derivatives")
