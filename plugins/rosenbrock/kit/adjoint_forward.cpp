#include "adjoint_forward.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "daekit/kits/rosenbrock/stepper.hpp"
#include "daekit/numerics/one_step_solve.hpp"
#include "daekit/numerics/sensitivity_equations.hpp"

namespace daekit::rosenbrock_adjoint {
namespace {

// The forward stepper, recording what it accepts (adjoint_forward.hpp).
class RecordingStepper {
 public:
  // `columns`: the jump's columns (y0 then p) for a DAE's consistent s+; nullptr without events.
  RecordingStepper(std::unique_ptr<RosenbrockStepper> inner, StepRecord& record, int every,
                   SensitivityEquations* columns)
      : inner_(std::move(inner)), record_(record), every_(static_cast<std::size_t>(every)), columns_(columns) {}

  const RosenbrockStepper& inner() const { return *inner_; }
  Eval start(double t0, const Eigen::VectorXd& y0) { return inner_->start(t0, y0); }
  const Eigen::VectorXd& f_start() const { return inner_->f_start(); }
  StepAttempt attempt(double t, double h, const Eigen::VectorXd& y) {
    t_ = t, h_ = h, y_ = &y;
    return inner_->attempt(t, h, y);
  }
  const Eigen::VectorXd& y_new() const { return inner_->y_new(); }
  void accept() {
    const std::size_t n = record_.t.size();
    if (keep_next_ || n % every_ == 0) record_.checkpoints[n] = *y_;
    keep_next_ = false;
    record_.t.push_back(t_), record_.h.push_back(h_);
    record_.y_end = inner_->y_new();
    inner_->accept();
  }
  void projected(const Eigen::VectorXd& y) {
    inner_->projected(y);
    record_.y_end = y;
    record_.moved.insert(record_.t.size());
    keep_next_ = true;
  }
  // The driver restarts the method after an event at t: y- is the last step's continuous
  // extension there, y (the reset state) the next step's start.
  Eval restart(double t, const Eigen::VectorXd& y) {
    EventRecord& event = record_.events[record_.t.size() - 1];
    event.step = record_.t.size() - 1;
    event.t = t;
    inner_->interpolate((t - t_) / h_, event.y_minus);
    keep_next_ = true;
    record_.y_end = y;
    return inner_->restart(t, y);
  }
  // s+ for the unit tangent [I 0] is the jump's matrix; a DAE's algebraic rows made
  // consistent with y+ as the forward sensitivities restart.
  std::string restart_sensitivities(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s_plus) {
    if (!columns_) return "no tangent columns for the event's jump";
    return columns_->restarted(t, y, s_plus, record_.events[record_.t.size() - 1].jump);
  }
  void interpolate(double theta, Eigen::VectorXd& out) { inner_->interpolate(theta, out); }
  int order() const { return inner_->order(); }
  int dense_degree() const { return inner_->dense_degree(); }

 private:
  std::unique_ptr<RosenbrockStepper> inner_;
  StepRecord& record_;
  std::size_t every_;
  SensitivityEquations* columns_;
  double t_ = 0, h_ = 0;
  const Eigen::VectorXd* y_ = nullptr;
  bool keep_next_ = false;
};

}  // namespace

SolveOutcome record_forward_pass(ProblemView& problem, const SolveRequest& request, OutputSink& sink,
                                 const tableaus::RosenbrockTableau& tableau, const RosenbrockAdjointSettings& settings,
                                 StepRecord& record) {
  // The forward pass lands on every data time: the data terms then sit at step boundaries.
  SolveRequest forward = request;
  const dk_functional& g = *request.adjoint;
  const double dir = request.direction();
  for (std::size_t k = 0; k < g.ndata; ++k)
    if (dir * (g.data_t[k] - request.t0) > 0 && dir * (request.tend - g.data_t[k]) > 0)
      forward.tstops.push_back(g.data_t[k]);
  std::sort(forward.tstops.begin(), forward.tstops.end(), [dir](double a, double b) { return dir * a < dir * b; });
  forward.tstops.erase(std::unique(forward.tstops.begin(), forward.tstops.end()), forward.tstops.end());
  // At events the driver's sensitivity jump (EventMonitor) carries the unit tangent [I 0]
  // over columns y0_1..y0_n, p_1..p_np: its s+ is the jump's linear map.
  std::optional<SensitivityEquations> columns;
  const Eigen::Index n = problem.size(), np = static_cast<Eigen::Index>(problem.np());
  if (problem.nroots() > 0 || problem.has_time_events()) {
    for (Eigen::Index i = 0; i < n; ++i) forward.sens_index.push_back(static_cast<std::int32_t>(-1 - i));
    for (Eigen::Index k = 0; k < np; ++k) forward.sens_index.push_back(static_cast<std::int32_t>(k));
    columns.emplace(problem, forward);
    sink.sensitivities_from([n, np](double, Eigen::MatrixXd& s) {
      s = Eigen::MatrixXd::Zero(n, n + np);
      s.leftCols(n).setIdentity();
      return true;
    });
  }
  const int every = std::max(1, settings.checkpoint_steps);
  SensitivityEquations* jump_columns = columns ? &*columns : nullptr;
  return solve_one_step(
      problem, forward, sink, tableau.order, /*allow_sparse=*/true,
      [&](const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm) {
        auto stepper = std::make_unique<RosenbrockStepper>(tableau, problem, mass, matrix, norm, 1);
        return std::make_unique<RecordingStepper>(std::move(stepper), record, every, jump_columns);
      },
      [&](const RecordingStepper& stepper) {
        return make_controller(settings.controller, stepper.inner().error_order(), settings.limits);
      });
}

}  // namespace daekit::rosenbrock_adjoint
