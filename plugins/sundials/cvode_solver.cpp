#include <cvodes/cvodes.h>
#include <cvodes/cvodes_ls.h>

#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/numerics/sensitivity_equations.hpp>
#include <memory>
#include <optional>

#include "cvode_adjoint.hpp"
#include "cvode_newton.hpp"
#include "ida_solver.hpp"
#include "krylov_support.hpp"
#include "linear_algebra.hpp"
#include "options.hpp"
#include "sensitivity_support.hpp"
#include "status_codes.hpp"
#include "sundials_support.hpp"

namespace daekit::plugins {
namespace {

using namespace sundials;

struct OdeModel {
  ProblemView& problem;
  const SolveRequest& request;
  MassMatrix mass;         // the identity: W = -J assembles J alone
  IterationMatrix matrix;  // our Jacobian (analytic, or differences inside a sparse pattern)
  bool use_matrix = false;
  std::optional<KrylovSupport> krylov;  // with linear_solver=krylov
  ErrorCapture errors;
  std::unique_ptr<SensitivityEquations> sensitivities;  // with sensitivities asked for
  Eigen::MatrixXd s, sdot;

  OdeModel(ProblemView& p, const SolveRequest& r) : problem(p), request(r) {
    if (r.wants_sensitivities()) sensitivities = std::make_unique<SensitivityEquations>(p, r);
  }

  // CVODES' sensitivity right-hand sides, all columns at once: (df/dy) s_k + df/dq_k.
  static int sensitivity_rhs(int ns, double t, N_Vector y, N_Vector ydot, N_Vector* ys, N_Vector* ysdot, void* data,
                             N_Vector, N_Vector) {
    auto* m = static_cast<OdeModel*>(data);
    const Eigen::Index n = m->problem.size();
    m->s.resize(n, ns);
    for (int k = 0; k < ns; ++k) m->s.col(k) = Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(ys[k]), n);
    const Eval e = m->sensitivities->rhs(t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(y), n),
                                         Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(ydot), n), m->s, m->sdot);
    if (e != Eval::ok) return to_sundials(e);
    for (int k = 0; k < ns; ++k) Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(ysdot[k]), n) = m->sdot.col(k);
    return 0;
  }

  static int rhs(double t, N_Vector y, N_Vector f, void* data) {
    auto* m = static_cast<OdeModel*>(data);
    const Eigen::Index n = m->problem.size();
    return to_sundials(m->problem.rhs(t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(y), n),
                                      Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(f), n)));
  }
  static int weights(N_Vector y, N_Vector w, void* data) {
    auto* m = static_cast<OdeModel*>(data);
    return error_weights(m->request.rtol, m->request.atol, y, w);
  }
  static int prec_setup(double t, N_Vector y, N_Vector fy, sunbooleantype jok, sunbooleantype* jcur, double gamma,
                        void* data) {
    int current = 0;
    const int flag = static_cast<OdeModel*>(data)->krylov->setup_ode(t, y, fy, jok, &current, gamma);
    *jcur = current ? SUNTRUE : SUNFALSE;
    return flag;
  }
  static int prec_solve(double, N_Vector, N_Vector, N_Vector r, N_Vector z, double, double delta, int, void* data) {
    return static_cast<OdeModel*>(data)->krylov->solve_ode(r, z, delta);
  }
  static int jtimes(N_Vector v, N_Vector jv, double t, N_Vector y, N_Vector, void* data, N_Vector) {
    return static_cast<OdeModel*>(data)->krylov->jtimes_ode(t, y, v, jv);
  }
  static int jacobian(double t, N_Vector y, N_Vector fy, SUNMatrix jac, void* data, N_Vector, N_Vector, N_Vector) {
    auto* m = static_cast<OdeModel*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> yv(N_VGetArrayPointer(y), n), f(N_VGetArrayPointer(fy), n);
    Eval e = m->matrix.evaluate_jacobian(t, yv, f);
    if (e != Eval::ok) return to_sundials(e);
    m->matrix.assemble(0.0);  // W = 0 M - J
    if (m->matrix.sparse()) {
      Eigen::SparseMatrix<double> j = -m->matrix.sparse_w();
      copy_sparse(j, jac);
    } else {
      copy_dense(-m->matrix.dense_w(), jac);
    }
    return 0;
  }
};

class Cvode {
 public:
  Cvode(OdeModel& model, const Eigen::VectorXd& y0, const CvodeOptions& options)
      : model_(model), y_(model.problem.size(), ctx_), dky_(model.problem.size(), ctx_) {
    const SolveRequest& req = model.request;
    y_.map() = y0;
    mem_ = CVodeCreate(CV_BDF, ctx_);
    check(CVodeSetErrHandlerFn(mem_, &ErrorCapture::handler, &model.errors), "CVodeSetErrHandlerFn");
    check(CVodeInit(mem_, &OdeModel::rhs, req.t0, y_), "CVodeInit");
    check(CVodeWFtolerances(mem_, &OdeModel::weights), "CVodeWFtolerances");
    check(CVodeSetUserData(mem_, &model), "CVodeSetUserData");
    if (model.krylov) {
      start_krylov();
    } else {
      const bool klu = model.use_matrix && model.matrix.sparse();
      make_linear_solver(la_, y_, options.linear.linear_solver, klu ? &model.matrix.sparse_w() : nullptr,
                         model.matrix.ordering(), ctx_);
      check(CVodeSetLinearSolver(mem_, la_.solver, la_.matrix), "CVodeSetLinearSolver");
      if (model.use_matrix) check(CVodeSetJacFn(mem_, &OdeModel::jacobian), "CVodeSetJacFn");
      check(set_direct_newton(mem_, options), "CVodeSetJacEvalFrequency/CVodeSetNonlinConvCoef");
    }
    if (model.sensitivities) start_sensitivities();
    check(CVodeSetMaxOrd(mem_, options.max_order), "CVodeSetMaxOrd");
    max_order_ = options.max_order;
    check(CVodeSetMaxNumSteps(mem_, 1000000), "CVodeSetMaxNumSteps");
    if (req.h0 > 0) check(CVodeSetInitStep(mem_, req.direction() * req.h0), "CVodeSetInitStep");
    if (req.hmax > 0) check(CVodeSetMaxStep(mem_, req.hmax), "CVodeSetMaxStep");
    if (req.hmin > 0) check(CVodeSetMinStep(mem_, req.hmin), "CVodeSetMinStep");
  }
  ~Cvode() { CVodeFree(&mem_); }

  // An ODE has nothing to make consistent: CVODE starts afresh from the changed state
  // (and with sensitivities from s+, which carry_sensitivities gave).
  RestartOutcome reset(double t, const EventRestart&) {
    const int flag = restart(t);
    if (flag < 0) return {cvode_status(flag), flag_name(flag) + ": " + message(), 0.0};
    return {};
  }

  int step(double tout, double* t) {
    if (s_ && may_roll_back_) {  // s where this step starts: a constraint's roll-back returns to it
      double at = 0.0;
      CVodeGetSens(mem_, &at, s_->data());
      s_->load(s_start_);
    }
    return CVode(mem_, tout, y_, t, CV_ONE_STEP);
  }
  // s+ after an event, where the restart that follows starts s.
  void carry_sensitivities(const Eigen::MatrixXd& s) {
    s_->store(s);
    s_given_ = true;
  }
  // s(t) on the last step (CVODES' interpolant of the sensitivities).
  bool interpolate_sensitivities(double t, Eigen::MatrixXd& out) {
    if (CVodeGetSensDky(mem_, t, 0, s_dky_->data()) != CV_SUCCESS) return false;
    s_dky_->load(out);
    return true;
  }
  // The Nordsieck array's degree is the order, at most max_order (one more sample is exact too).
  int dense_degree() const { return max_order_ + 1; }
  bool interpolate(double t, Eigen::VectorXd& out) {
    if (CVodeGetDky(mem_, t, 0, dky_) != CV_SUCCESS) return false;
    out = dky_.map();
    return true;
  }
  Eigen::Map<Eigen::VectorXd> state() { return y_.map(); }
  void set_stop_time(double t) { CVodeSetStopTime(mem_, t); }
  int restart(double t) {
    carried_ += counters();
    if (!s_) return CVodeReInit(mem_, t, y_);
    carried_sens_ += sensitivity_counters();
    double at = 0.0;
    if (!s_given_) CVodeGetSens(mem_, &at, s_->data());
    s_given_ = false;
    const int flag = CVodeReInit(mem_, t, y_);
    return flag < 0 ? flag : CVodeSensReInit(mem_, CV_STAGGERED, s_->data());
  }
  // Back to an earlier accepted point (a step that left a sign constraint), the next
  // step no longer than h.
  int roll_back(double t, const Eigen::VectorXd& y, const Eigen::VectorXd&, double h) {
    y_.map() = y;
    if (s_) {
      s_->store(s_start_);
      s_given_ = true;
    }
    CVodeSetInitStep(mem_, h);
    return restart(t);
  }
  void copy_derivative(Eigen::VectorXd& out) const { out.resize(0); }  // CVODE keeps no y' to restore
  // Attempted steps (accepted, and failed on the error test or in Newton), as --max-steps counts them.
  long steps() const {
    const Counters c = counters();
    return carried_.steps + carried_.error_test_failures + carried_.convergence_failures + c.steps +
           c.error_test_failures + c.convergence_failures;
  }
  double last_step() const {
    double h = 0;
    CVodeGetLastStep(mem_, &h);
    return h;
  }
  double current_step() const {
    double h = 0;
    CVodeGetCurrentStep(mem_, &h);
    return h;
  }
  int tstop_return() const { return CV_TSTOP_RETURN; }
  Status status_of(int flag) const { return cvode_status(flag); }
  std::string flag_name(int flag) const { return sundials::flag_name(&CVodeGetReturnFlagName, flag, "CVODE error"); }
  std::string message() const { return last_message(model_.errors, model_.problem); }
  std::string model_failures() const { return model_.problem.failure_summary(); }

  void add_stats(Stats& s) const {
    Counters c = counters();
    c += carried_;
    CVodeGetLastOrder(mem_, &c.order);
    c.h_last = last_step();
    add_counters(s, c, model_.use_matrix, model_.krylov.has_value());
    if (!s_) return;
    SensitivityCounters sc = sensitivity_counters();
    sc += carried_sens_;
    sc.add_to(s, s_->size());
  }

 private:
  // CVODE's counters since the last (re)initialisation.
  Counters counters() const {
    Counters c;
    CVodeGetNumSteps(mem_, &c.steps);
    CVodeGetNumErrTestFails(mem_, &c.error_test_failures);
    CVodeGetNumNonlinSolvConvFails(mem_, &c.convergence_failures);
    CVodeGetNumJacEvals(mem_, &c.jacobians);
    CVodeGetNumLinRhsEvals(mem_, &c.difference_evaluations);
    CVodeGetNumLinSolvSetups(mem_, &c.setups);
    CVodeGetNumNonlinSolvIters(mem_, &c.newton_iterations);
    if (model_.krylov) {
      CVodeGetNumLinIters(mem_, &c.linear_iterations);
      CVodeGetNumLinConvFails(mem_, &c.linear_convergence_failures);
    }
    return c;
  }

  Counters carried_;  // the segments before the last restart at a breakpoint

  // SUNDIALS' iterative solver, J v and the preconditioner (krylov_support.hpp).
  void start_krylov() {
    KrylovSupport& k = *model_.krylov;
    k.make_solver(la_, y_, KrylovSupport::Integrator::cvode, ctx_);
    check(CVodeSetLinearSolver(mem_, la_.solver, nullptr), "CVodeSetLinearSolver");
    check(CVodeSetEpsLin(mem_, k.eplifac()), "CVodeSetEpsLin");
    check(CVodeSetJacTimes(mem_, nullptr, &OdeModel::jtimes), "CVodeSetJacTimes");
    if (k.preconditioned())
      check(CVodeSetPreconditioner(mem_, &OdeModel::prec_setup, &OdeModel::prec_solve), "CVodeSetPreconditioner");
  }

  SensitivityCounters sensitivity_counters() const {
    SensitivityCounters c;
    CVodeGetSensNumNonlinSolvIters(mem_, &c.iterations);
    CVodeGetSensNumErrTestFails(mem_, &c.error_test_failures);
    return c;
  }
  SensitivityCounters carried_sens_;

  // The staggered corrector (CVODES' CV_STAGGERED): y's Newton iteration converges first,
  // then s's, a linear system with the same iteration matrix; errors weighted as y's with
  // atol / pbar (CVodeSensEEtolerances).
  void start_sensitivities() {
    const SolveRequest& req = model_.request;
    const int ns = static_cast<int>(req.sens_index.size());
    s_.emplace(ns, y_);
    s_dky_.emplace(ns, y_);
    s_->store(model_.sensitivities->initial());
    check(CVodeSensInit(mem_, ns, CV_STAGGERED, &OdeModel::sensitivity_rhs, s_->data()), "CVodeSensInit");
    pbar_ = model_.sensitivities->scales();
    check(CVodeSetSensParams(mem_, nullptr, pbar_.data(), nullptr), "CVodeSetSensParams");
    check(CVodeSensEEtolerances(mem_), "CVodeSensEEtolerances");
    check(CVodeSetSensErrCon(mem_, req.sens_error_control ? SUNTRUE : SUNFALSE), "CVodeSetSensErrCon");
  }

  void check(int flag, const char* what) {
    if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + flag_name(flag) + " " + model_.errors.last);
  }

  OdeModel& model_;
  Context ctx_;
  Vector y_, dky_;  // dky_: interpolated output
  std::optional<VectorArray> s_, s_dky_;  // with sensitivities: s, and s interpolated
  Eigen::MatrixXd s_start_;
  std::vector<double> pbar_;
  bool s_given_ = false;  // s_ holds where the restart starts (a roll-back's, s+), not CVODES' current s
  // Only sign constraints roll a step back (one_step_loop's ConstraintGuard).
  const bool may_roll_back_ = constrained_components(model_.problem.info()) > 0;
  LinearAlgebra la_;
  void* mem_ = nullptr;
  int max_order_ = 5;
};

}  // namespace

SolverDescription CvodeSolver::describe() {
  SolverDescription d;
  d.capabilities.max_mass = MassKind::identity;
  d.capabilities.max_dae_index = 0;
  d.capabilities.dense_output = true;
  d.capabilities.sparse = true;
  d.capabilities.order = 5;
  d.capabilities.events = true;
  d.capabilities.event_sampling = true;
  d.capabilities.constraints = true;
  d.capabilities.keep_dense = true;
  d.capabilities.step_notification = true;
  d.capabilities.mass_storage = true;
  d.capabilities.sensitivities = true;
  d.capabilities.adjoint = true;
  d.options = cvode_options().describe();
  return d;
}

SolveOutcome CvodeSolver::solve(ProblemView& problem, const SolveRequest& req, OutputSink& sink) {
  OdeModel model(problem, req);
  CvodeOptions options;
  if (std::string why; !read_sundials_options(cvode_options(), problem, req, options, &why))
    return {Status::invalid_input, why, req.t0};
  if (const std::string why = KrylovSupport::refusal(options.linear, req); !why.empty())
    return {Status::unsupported_problem, why, req.t0};
  if (req.wants_adjoint()) return cvode_adjoint_solve(problem, req, sink, options);
  const std::string& solver_choice = options.linear.linear_solver;
  const bool sparse = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  if (solver_choice == "klu" && !sparse)
    return {Status::invalid_input, "linear_solver=klu needs a problem with a sparse Jacobian pattern", req.t0};
  if (model.mass.setup(problem, req.t0, req.y0) != Eval::ok)
    return {Status::evaluation_failure, problem.last_message(), req.t0};
  if (options.linear.krylov()) {
    std::string why;
    if (!model.krylov.emplace().setup(problem, req, options.linear, &model.mass, &why))
      return {Status::invalid_input, why, req.t0};
  } else if (sparse || (problem.has_analytic_jacobian() && req.jacobian != JacobianSource::finite_difference)) {
    // Our Jacobian where the problem has one or a pattern; otherwise CVODE's difference quotients.
    // A dense solver gets the matrix assembled densely, also for a problem with a pattern.
    const bool dense_solver = solver_choice == "dense" || solver_choice == "core";
    model.matrix.setup(problem, req, model.mass, !dense_solver);
    model.use_matrix = true;
  }
  if (!model.krylov) {
    problem.stats().jacobian_used =
        model.use_matrix && model.matrix.analytic() ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
    // With our matrix its setup says dense or sparse (KLU); without it SUNDIALS' dense LU runs.
    if (!model.use_matrix) problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_DENSE;
  }

  if (model.sensitivities && model.sensitivities->any_parameter() && !problem.has_parameter_derivative())
    return {Status::unsupported_problem, "problem gives no df/dp, which sensitivities with respect to parameters need",
            req.t0};
  Stats& stats = problem.stats();
  Cvode cvode(model, req.y0, options);
  bool started = false;
  if (model.sensitivities) {
    const Eigen::MatrixXd s0 = model.sensitivities->initial();
    sink.sensitivities_from([&, s0](double t, Eigen::MatrixXd& s) {
      if (!started) return s = s0, true;
      return cvode.interpolate_sensitivities(t, s);
    });
  }
  if (req.output == OutputMode::every_step && !sink.emit(req.t0, req.y0)) return {Status::stopped_by_observer, "", req.t0};
  for (std::size_t k = 0; k < req.saveat.size() && req.saveat[k] == req.t0; ++k)
    if (!sink.emit(req.t0, req.y0)) return {Status::stopped_by_observer, "", req.t0};
  started = true;
  EventMonitor events(problem, req, sink);
  SolveOutcome out = one_step_loop(cvode, req, sink, static_cast<long>(req.max_steps), events);
  cvode.add_stats(stats);
  return out;
}

}  // namespace daekit::plugins
