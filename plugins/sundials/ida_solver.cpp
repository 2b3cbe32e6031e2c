#include "ida_solver.hpp"

#include <idas/idas.h>
#include <idas/idas_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cstring>
#include <daekit/numerics/consistency.hpp>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/initial_step.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/numerics/sensitivity_equations.hpp>
#include <memory>
#include <optional>
#include <sstream>

#include "ida_adjoint.hpp"
#include "krylov_support.hpp"
#include "linear_algebra.hpp"
#include "options.hpp"
#include "sensitivity_support.hpp"
#include "status_codes.hpp"
#include "sundials_support.hpp"

namespace daekit::plugins {
namespace {

using namespace sundials;

// Everything IDA's callbacks need, reached through user_data.
struct Model {
  ProblemView& problem;
  const SolveRequest& request;
  MassMatrix mass;
  IterationMatrix matrix;  // analytic W = cj M - J (mass-matrix form with constant M)
  bool use_matrix = false;
  bool residual_jacobian = false;  // residual-form problem with its own dF/dy + cj dF/dy'
  std::optional<KrylovSupport> krylov;  // with linear_solver=krylov
  Eigen::MatrixXd rj;
  Eigen::VectorXd f;               // for finite differences inside a sparse pattern
  ErrorCapture errors;
  std::unique_ptr<SensitivityEquations> sensitivities;  // with sensitivities asked for
  Eigen::MatrixXd s, sp, rs;

  Model(ProblemView& p, const SolveRequest& r) : problem(p), request(r), f(p.size()) {
    if (r.wants_sensitivities()) sensitivities = std::make_unique<SensitivityEquations>(p, r);
  }

  // IDAS' sensitivity residuals, all columns at once: dF/dy s_k + dF/dy' s_k' + dF/dq_k.
  static int sensitivity_residual(int ns, double t, N_Vector yy, N_Vector yp, N_Vector rr, N_Vector* ys, N_Vector* yps,
                                  N_Vector* rs, void* data, N_Vector, N_Vector, N_Vector) {
    auto* m = static_cast<Model*>(data);
    const Eigen::Index n = m->problem.size();
    m->s.resize(n, ns);
    m->sp.resize(n, ns);
    for (int k = 0; k < ns; ++k) {
      m->s.col(k) = Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(ys[k]), n);
      m->sp.col(k) = Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(yps[k]), n);
    }
    using Map = Eigen::Map<const Eigen::VectorXd>;
    const Eval e = m->sensitivities->residual(t, Map(N_VGetArrayPointer(yy), n), Map(N_VGetArrayPointer(yp), n),
                                              Map(N_VGetArrayPointer(rr), n), m->s, m->sp, m->rs);
    if (e != Eval::ok) return to_sundials(e);
    for (int k = 0; k < ns; ++k) Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(rs[k]), n) = m->rs.col(k);
    return 0;
  }

  static int residual(double t, N_Vector yy, N_Vector yp, N_Vector rr, void* data) {
    auto* m = static_cast<Model*>(data);
    const Eigen::Index n = m->problem.size();
    return to_sundials(m->problem.residual(t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(yy), n),
                                           Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(yp), n),
                                           Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(rr), n)));
  }
  static int weights(N_Vector y, N_Vector w, void* data) {
    auto* m = static_cast<Model*>(data);
    return error_weights(m->request.rtol, m->request.atol, y, w);
  }
  static int prec_setup(double t, N_Vector yy, N_Vector yp, N_Vector rr, double cj, void* data) {
    return static_cast<Model*>(data)->krylov->setup_dae(t, yy, yp, rr, cj);
  }
  static int prec_solve(double, N_Vector, N_Vector, N_Vector, N_Vector r, N_Vector z, double cj, double delta,
                        void* data) {
    return static_cast<Model*>(data)->krylov->solve_dae(r, z, cj, delta);
  }
  static int jtimes(double t, N_Vector yy, N_Vector yp, N_Vector, N_Vector v, N_Vector jv, double cj, void* data,
                    N_Vector, N_Vector) {
    return static_cast<Model*>(data)->krylov->jtimes_dae(t, yy, yp, v, jv, cj);
  }
  static int jacobian(double t, double cj, N_Vector yy, N_Vector yp, N_Vector, SUNMatrix jac, void* data, N_Vector,
                      N_Vector, N_Vector) {
    auto* m = static_cast<Model*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> y(N_VGetArrayPointer(yy), n), ypv(N_VGetArrayPointer(yp), n);
    if (m->residual_jacobian) {
      Eval e = m->problem.residual_jacobian(t, y, ypv, cj, m->rj);
      if (e != Eval::ok) return to_sundials(e);
      copy_dense(m->rj, jac);
      return 0;
    }
    if (!m->matrix.analytic()) {  // our finite differences (dense, or inside a sparse pattern) need f
      Eval e = m->problem.rhs(t, y, m->f);
      if (e != Eval::ok) return to_sundials(e);
    }
    Eval e = m->matrix.evaluate_jacobian(t, y, m->f);
    if (e != Eval::ok) return to_sundials(e);
    m->matrix.assemble(cj);
    m->matrix.sparse() ? copy_sparse(m->matrix.sparse_w(), jac) : copy_dense(m->matrix.dense_w(), jac);
    return 0;
  }
};

class Ida {
 public:
  Ida(Model& model, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0, double h0, const std::string& solver,
      int max_order, int max_nonlinear)
      : model_(model), yy_(model.problem.size(), ctx_), yp_(model.problem.size(), ctx_),
        id_(model.problem.size(), ctx_), dky_(model.problem.size(), ctx_) {
    const SolveRequest& req = model.request;
    const Eigen::Index n = model.problem.size();
    yy_.map() = y0;
    yp_.map() = yp0;
    for (Eigen::Index i = 0; i < n; ++i) id_.map()[i] = model.problem.is_algebraic(i) ? 0.0 : 1.0;
    mem_ = IDACreate(ctx_);
    check(IDASetErrHandlerFn(mem_, &ErrorCapture::handler, &model.errors), "IDASetErrHandlerFn");
    check(IDAInit(mem_, &Model::residual, req.t0, yy_, yp_), "IDAInit");
    check(IDAWFtolerances(mem_, &Model::weights), "IDAWFtolerances");
    check(IDASetUserData(mem_, &model), "IDASetUserData");
    check(IDASetId(mem_, id_), "IDASetId");
    check(IDASetSuppressAlg(mem_, suppress_ ? SUNTRUE : SUNFALSE), "IDASetSuppressAlg");
    if (model.krylov) {
      start_krylov();
    } else {
      const bool klu = model.use_matrix && model.matrix.sparse();
      make_linear_solver(la_, yy_, solver, klu ? &model.matrix.sparse_w() : nullptr, model.matrix.ordering(), ctx_);
      check(IDASetLinearSolver(mem_, la_.solver, la_.matrix), "IDASetLinearSolver");
      if (model.use_matrix || model.residual_jacobian) check(IDASetJacFn(mem_, &Model::jacobian), "IDASetJacFn");
    }
    check(IDASetMaxOrd(mem_, max_order), "IDASetMaxOrd");
    max_order_ = max_order;
    check(IDASetMaxNonlinIters(mem_, max_nonlinear), "IDASetMaxNonlinIters");
    check(IDASetMaxNumSteps(mem_, 1000000), "IDASetMaxNumSteps");  // one-step mode: our loop counts
    if (h0 > 0) check(IDASetInitStep(mem_, req.direction() * h0), "IDASetInitStep");
    if (req.hmax > 0) check(IDASetMaxStep(mem_, req.hmax), "IDASetMaxStep");
    if (req.hmin > 0) check(IDASetMinStep(mem_, req.hmin), "IDASetMinStep");
  }
  ~Ida() { IDAFree(&mem_); }

  // After an event changed y: the core's consistency service (the algebraic components
  // re-solved when the event asks, else checked), y' anew, then IDA starts afresh.
  RestartOutcome reset(double t, const EventRestart& cause) {
    const ProblemView& problem = model_.problem;
    const bool constant_mass = !problem.residual_only() && problem.mass_kind() <= MassKind::constant;
    Eigen::VectorXd y = yy_.map(), yp;
    if (RestartOutcome again = reinitialise_after_event(model_.problem, model_.request,
                                                        constant_mass ? &model_.mass : nullptr, t, cause, y, &yp);
        again.status != Status::success)
      return again;
    yy_.map() = y;
    yp_.map() = yp;
    if (carried_s_) {
      if (const Eval e = carried_slopes(t, y); e != Eval::ok)
        return {Status::evaluation_failure, "the sensitivities' slopes after the event: " + problem.last_message(), 0.0};
      rolled_back_ = true;  // s_ and sp_ hold where the restart starts
      carried_s_ = false;
    }
    const int flag = restart(t);
    if (flag < 0) return {ida_status(flag), flag_name(flag) + ": " + message(), 0.0};
    return {};
  }

  // s+ after an event (the jump's, consistent), where the restart that follows starts s.
  void carry_sensitivities(const Eigen::MatrixXd& s) {
    s_->store(s);
    carried_s_ = true;
  }

  // s' of the carried s+ at (t, y+): M s' = J s + f_q, as y' from M y' = f.
  Eval carried_slopes(double t, const Eigen::VectorXd& y) {
    Eigen::MatrixXd s, rhs, sp(y.size(), static_cast<Eigen::Index>(model_.request.sens_index.size()));
    s_->load(s);
    Eigen::VectorXd f(y.size()), column;
    Eval e = model_.problem.rhs(t, y, f);
    if (e == Eval::ok) e = model_.sensitivities->rhs(t, y, f, s, rhs);
    if (e != Eval::ok) return e;
    for (Eigen::Index k = 0; k < s.cols(); ++k) {
      derivative_from_mass(model_.mass, model_.problem, rhs.col(k), column);
      sp.col(k) = column;
    }
    sp_->store(sp);
    return Eval::ok;
  }

  void set_suppress(bool s) {
    suppress_ = s;
    check(IDASetSuppressAlg(mem_, s ? SUNTRUE : SUNFALSE), "IDASetSuppressAlg");
  }
  // IDA_YA_YDP_INIT: algebraic y and differential y' from the differential y.
  int calc_ic(double tout1, bool line_search) {
    IDASetLineSearchOffIC(mem_, line_search ? SUNFALSE : SUNTRUE);
    return IDACalcIC(mem_, IDA_YA_YDP_INIT, tout1);
  }
  void consistent_ic() {
    IDAGetConsistentIC(mem_, yy_, yp_);
    if (s_) IDAGetSensConsistentIC(mem_, s_->data(), sp_->data());
  }

  // The staggered corrector (IDAS' IDA_STAGGERED), errors weighted as y's with atol / pbar
  // (IDASensEEtolerances); s0 as given, s'0 zero until IDACalcIC makes both consistent.
  void start_sensitivities(const Eigen::MatrixXd& s0) {
    const SolveRequest& req = model_.request;
    const int ns = static_cast<int>(req.sens_index.size());
    s_.emplace(ns, yy_);
    sp_.emplace(ns, yy_);
    s_dky_.emplace(ns, yy_);
    s_->store(s0);
    sp_->store(Eigen::MatrixXd::Zero(s0.rows(), s0.cols()));
    check(IDASensInit(mem_, ns, IDA_STAGGERED, &Model::sensitivity_residual, s_->data(), sp_->data()), "IDASensInit");
    pbar_ = model_.sensitivities->scales();
    check(IDASetSensParams(mem_, nullptr, pbar_.data(), nullptr), "IDASetSensParams");
    check(IDASensEEtolerances(mem_), "IDASensEEtolerances");
    check(IDASetSensErrCon(mem_, req.sens_error_control ? SUNTRUE : SUNFALSE), "IDASetSensErrCon");
  }
  // s(t) on the last step; s0 itself before the first.
  bool interpolate_sensitivities(double t, Eigen::MatrixXd& out) {
    if (!stepped_) return s_->load(out), true;
    if (IDAGetSensDky(mem_, t, 0, s_dky_->data()) != IDA_SUCCESS) return false;
    s_dky_->load(out);
    return true;
  }

  // Backend for one_step_loop.
  int step(double tout, double* t) {
    if (s_ && stepped_ && may_roll_back_) {  // s where this step starts: a constraint's roll-back returns to it
      double at = 0.0;
      IDAGetSens(mem_, &at, s_->data());
      IDAGetSensDky(mem_, at, 1, sp_->data());
    }
    stepped_ = true;
    if (model_.krylov) scale_linear_tolerance();
    return last_flag_ = IDASolve(mem_, tout, t, yy_, yp_, IDA_ONE_STEP);
  }
  // IDA tests a Krylov solve's residual, which is in F's units (y' for an ODE row), with
  // y's weights: a correction's error is about that residual over cj, up to 1/cj times the
  // tolerance on long steps. So the tolerance is eplifac min(1, cj) (the last step's cj;
  // eplifac before the first): never looser than IDA's own. With sensitivities a hundred times tighter: IDAS's
  // staggered corrector keeps its first correction of the (linear) sensitivity system
  // once that correction is small, with the Krylov solve's error in it, and those errors
  // add up over the steps (unpreconditioned SPGMR, rtol 1e-6: Robertson's dy/dk2 39 %
  // off, pollu's dy/dk3 1 640 tolerances, with success).
  void scale_linear_tolerance() {
    double cj = 0.0;
    const double units = IDAGetCurrentCj(mem_, &cj) == IDA_SUCCESS && cj > 0.0 ? std::min(1.0, cj) : 1.0;
    const double sensitivities = s_ ? 0.01 : 1.0;
    check(IDASetEpsLin(mem_, model_.krylov->eplifac() * units * sensitivities), "IDASetEpsLin");
  }
  // The model said stop (a fatal evaluation, an interrupt): no other first step helps.
  bool model_gave_up() const { return last_flag_ == IDA_RES_FAIL; }
  // IDAGetDky's polynomial has the degree of the order used, at most max_order.
  int dense_degree() const { return max_order_ + 1; }
  bool interpolate(double t, Eigen::VectorXd& out) {
    if (IDAGetDky(mem_, t, 0, dky_) != IDA_SUCCESS) return false;
    out = dky_.map();
    return true;
  }
  Eigen::Map<Eigen::VectorXd> state() { return yy_.map(); }
  void set_stop_time(double t) { IDASetStopTime(mem_, t); }
  int restart(double t) {
    carried_ += counters();
    if (!s_) return IDAReInit(mem_, t, yy_, yp_);
    carried_sens_ += sensitivity_counters();
    if (!rolled_back_) {
      double at = 0.0;
      IDAGetSens(mem_, &at, s_->data());
      IDAGetSensDky(mem_, t, 1, sp_->data());
    }
    rolled_back_ = false;
    const int flag = IDAReInit(mem_, t, yy_, yp_);
    return flag < 0 ? flag : IDASensReInit(mem_, IDA_STAGGERED, s_->data(), sp_->data());
  }
  // Back to an earlier accepted point (a step that left a sign constraint), the next
  // step no longer than h.
  int roll_back(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double h) {
    yy_.map() = y;
    yp_.map() = yp;
    rolled_back_ = s_.has_value();  // s_ and sp_ hold where the step started (step())
    IDASetInitStep(mem_, h);
    return restart(t);
  }
  void copy_derivative(Eigen::VectorXd& out) { out = yp_.map(); }
  long accepted_steps() const { return carried_.steps + counters().steps; }
  // Attempted steps (accepted, and failed on the error test or in Newton), as --max-steps counts them.
  long steps() const {
    const Counters c = counters();
    return carried_.steps + carried_.error_test_failures + carried_.convergence_failures + c.steps +
           c.error_test_failures + c.convergence_failures;
  }
  double last_step() const {
    double h = 0;
    IDAGetLastStep(mem_, &h);
    return h;
  }
  double current_step() const {
    double h = 0;
    IDAGetCurrentStep(mem_, &h);
    return h;
  }
  int tstop_return() const { return IDA_TSTOP_RETURN; }
  Status status_of(int flag) const { return ida_status(flag); }
  std::string flag_name(int flag) const { return sundials::flag_name(&IDAGetReturnFlagName, flag, "IDA error"); }
  std::string message() const { return last_message(model_.errors, model_.problem); }
  std::string model_failures() const { return model_.problem.failure_summary(); }

  // Jacobian evaluations made through our IterationMatrix are counted there already.
  void add_stats(Stats& s) const {
    Counters c = counters();
    c += carried_;
    IDAGetLastOrder(mem_, &c.order);
    c.h_last = last_step();
    add_counters(s, c, model_.use_matrix, model_.krylov.has_value());
    if (!s_) return;
    SensitivityCounters sc = sensitivity_counters();
    sc += carried_sens_;
    sc.add_to(s, s_->size());
  }


 private:
  void check(int flag, const char* what) {
    if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + flag_name(flag) + " " + model_.errors.last);
  }

  // IDA's counters since the last (re)initialisation.
  Counters counters() const {
    Counters c;
    IDAGetNumSteps(mem_, &c.steps);
    IDAGetNumErrTestFails(mem_, &c.error_test_failures);
    IDAGetNumNonlinSolvConvFails(mem_, &c.convergence_failures);
    IDAGetNumJacEvals(mem_, &c.jacobians);
    IDAGetNumLinResEvals(mem_, &c.difference_evaluations);
    IDAGetNumLinSolvSetups(mem_, &c.setups);
    IDAGetNumNonlinSolvIters(mem_, &c.newton_iterations);
    if (model_.krylov) {
      IDAGetNumLinIters(mem_, &c.linear_iterations);
      IDAGetNumLinConvFails(mem_, &c.linear_convergence_failures);
    }
    return c;
  }

  // SUNDIALS' iterative solver, J v and the preconditioner (krylov_support.hpp).
  void start_krylov() {
    KrylovSupport& k = *model_.krylov;
    k.make_solver(la_, yy_, KrylovSupport::Integrator::ida, ctx_);
    check(IDASetLinearSolver(mem_, la_.solver, nullptr), "IDASetLinearSolver");
    scale_linear_tolerance();
    check(IDASetJacTimes(mem_, nullptr, &Model::jtimes), "IDASetJacTimes");
    if (k.preconditioned())
      check(IDASetPreconditioner(mem_, &Model::prec_setup, &Model::prec_solve), "IDASetPreconditioner");
  }

  Counters carried_;  // the segments before the last restart at a breakpoint

  SensitivityCounters sensitivity_counters() const {
    SensitivityCounters c;
    IDAGetSensNumNonlinSolvIters(mem_, &c.iterations);
    IDAGetSensNumErrTestFails(mem_, &c.error_test_failures);
    return c;
  }
  SensitivityCounters carried_sens_;
  std::optional<VectorArray> s_, sp_, s_dky_;  // with sensitivities: s, s', s interpolated
  std::vector<double> pbar_;
  bool stepped_ = false, rolled_back_ = false, carried_s_ = false;
  Model& model_;
  // Only sign constraints roll a step back (one_step_loop's ConstraintGuard).
  const bool may_roll_back_ = constrained_components(model_.problem.info()) > 0;
  Context ctx_;
  Vector yy_, yp_, id_, dky_;  // dky_: interpolated output
  LinearAlgebra la_;
  void* mem_ = nullptr;
  int max_order_ = 5;
  int last_flag_ = IDA_SUCCESS;
  bool suppress_ = false;
};

// The largest |F(t0, y0, y'0)| over all equations.
double residual_norm(ProblemView& p, const SolveRequest& r, const Eigen::VectorXd& y, const Eigen::VectorXd& yp) {
  Eigen::VectorXd res(p.size());
  if (p.residual(r.t0, y, yp, res) != Eval::ok) return std::numeric_limits<double>::infinity();
  return res.cwiseAbs().maxCoeff();
}

// Consistent y(t0), y'(t0) for IDA: the core's service first (also with --init fix: it
// meets constraints of index 2, such as the slider crank's velocity constraints, by moving
// differential components, which IDACalcIC's YA_YDP mode cannot); y' from M y' = f where
// M is constant. false: the run ends as *out says.
bool initial_state(ProblemView& problem, const SolveRequest& req, Model& model, bool constant_mass,
                   Eigen::VectorXd& y0, Eigen::VectorXd& yp0, std::string* init_note, SolveOutcome* out) {
  const Eigen::Index n = problem.size();
  const bool mass_form = !problem.residual_only();
  if (constant_mass && model.mass.setup(problem, req.t0, y0) != Eval::ok) {
    out->status = Status::evaluation_failure;
    out->message = problem.last_message();
    return false;
  }
  if (req.init != InitPolicy::trust && constant_mass) {
    InitialisationOutcome init = initialise(problem, req, model.mass, y0);
    if (init.status != Status::success) {
      out->status = init.status;
      out->message = init.message;
      return false;
    }
    if (!init.message.empty()) *init_note = init.message + "; ";
  }
  if (req.yp0.size() == n && y0 == req.y0) {
    yp0 = req.yp0;
  } else if (constant_mass) {
    Eigen::VectorXd f(n);
    if (problem.rhs(req.t0, y0, f) != Eval::ok) {
      out->status = Status::evaluation_failure;
      out->message = "at t0: " + problem.last_message();
      return false;
    }
    derivative_from_mass(model.mass, problem, f, yp0);
  } else if (req.init == InitPolicy::check) {
    out->status = Status::inconsistent_initial_values;
    out->message = "the problem gives no y'(t0); pass --init fix to compute consistent values with IDACalcIC";
    return false;
  }
  if (!mass_form && req.init == InitPolicy::check) {
    const double r = residual_norm(problem, req, y0, yp0), tol = req.atol.minCoeff();
    if (r > std::max(tol, 1e-12)) {
      std::ostringstream m;
      m << "the initial values are inconsistent: |F(t0, y0, y'0)| is " << r << " (tolerance " << tol
        << "); pass --init fix to compute consistent values with IDACalcIC";
      out->status = Status::inconsistent_initial_values;
      out->message = m.str();
      return false;
    }
  }
  return true;
}

// Jacobian: ours where the problem has one (W = cj M - J, or its residual Jacobian), else
// IDA's differences. false: the run ends as *out says.
bool choose_jacobian(ProblemView& problem, const SolveRequest& req, const IdaOptions& options, bool constant_mass,
                     Model& model, SolveOutcome* out) {
  const bool mass_form = !problem.residual_only();
  if (options.linear.krylov()) {
    std::string why;
    if (model.krylov.emplace().setup(problem, req, options.linear, constant_mass ? &model.mass : nullptr, &why))
      return true;
    out->status = Status::invalid_input;
    out->message = why;
    return false;
  }
  const std::string& solver_choice = options.linear.linear_solver;
  const bool sparse = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  if (solver_choice == "klu" && !sparse) {
    out->status = Status::invalid_input;
    out->message = "linear_solver=klu needs a problem with a sparse Jacobian pattern";
    return false;
  }
  const bool our_differences = options.difference_quotients == "daekit";
  if (constant_mass && (sparse || our_differences ||
                        (problem.has_analytic_jacobian() && req.jacobian != JacobianSource::finite_difference))) {
    // A dense solver gets the matrix assembled densely, also for a problem with a pattern.
    const bool dense_solver = solver_choice == "dense" || solver_choice == "core";
    model.matrix.setup(problem, req, model.mass, !dense_solver);
    model.use_matrix = true;
  } else if (!mass_form && problem.has_residual_jacobian() && req.jacobian != JacobianSource::finite_difference) {
    model.residual_jacobian = true;
  }
  problem.stats().jacobian_used =
      (model.use_matrix && model.matrix.analytic()) || model.residual_jacobian ? DK_JACOBIAN_ANALYTIC
                                                                                : DK_JACOBIAN_FINITE_DIFFERENCE;
  // With our matrix its setup says dense or sparse (KLU); without it SUNDIALS' dense LU runs.
  if (!model.use_matrix) problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_DENSE;
  return true;
}

// First steps to try: the user's; else IDA's own, then (on a failure before any step was
// accepted) the core's automatic estimate and larger ones.
std::vector<double> first_steps(ProblemView& problem, const SolveRequest& req, const IdaOptions& options,
                                bool constant_mass, const Model& model, const Eigen::VectorXd& y0) {
  const Eigen::Index n = problem.size();
  std::vector<double> h0s;
  if (req.h0 > 0) {
    h0s.push_back(req.h0);
  } else {
    h0s.push_back(0.0);
    if (options.initial_step_retry && constant_mass) {
      ErrorNorm norm = ErrorNorm::for_request(req, problem);
      Eigen::VectorXd f(n);
      double h = 0;
      if (problem.rhs(req.t0, y0, f) == Eval::ok &&
          initial_step(problem, norm, model.mass, req.t0, y0, f, 3, req.hmax, &h) == Eval::ok && h > 0)
        h0s.push_back(h);
      const double span = std::abs(req.tend - req.t0);
      for (double frac : {1e-6, 1e-4}) h0s.push_back(frac * span);
    }
  }
  return h0s;
}

// IDACalcIC's tout1: where the first output would be, close to t0.
double first_output(const SolveRequest& req) {
  return req.t0 + req.direction() * std::max(std::abs(req.tend - req.t0) * 1e-6, 1e-12);
}

// Why sensitivities cannot be computed for this problem ("" when they can).
std::string sensitivities_refused(const ProblemView& problem, const Model& model, int max_index) {
  if (!model.sensitivities) return "";
  if (model.sensitivities->any_parameter() && !problem.has_parameter_derivative())
    return "problem gives no df/dp, which sensitivities with respect to parameters need";
  if (max_index >= 2)
    return "ida computes sensitivities of index-1 DAEs (IDACalcIC makes s0 consistent); this problem has index " +
           std::to_string(max_index) + " components";
  // Through events s jumps (core/numerics/sensitivity_jump.hpp), then restarts with s' from
  // M s' = J s + f_q: a problem M y' = f with a constant M.
  const bool events = problem.nroots() > 0 || problem.has_time_events() || problem.wants_step_notification();
  if (events && (problem.residual_only() || problem.mass_kind() > MassKind::constant))
    return "ida carries sensitivities through events for problems M y' = f with a constant M; this one is a "
           "residual or has a varying M";
  return "";
}

// The first steps tried before the run's (retries: why each failed at t0), said in its message.
void say_retries(const std::string& retries, double used_h0, SolveOutcome& out) {
  std::ostringstream m;
  m << retries << (is_success(out.status) ? "succeeded with h0=" : "last tried h0=") << used_h0;
  out.message = is_success(out.status) ? m.str() : m.str() + ": " + out.message;
}

}  // namespace

SolverDescription IdaSolver::describe() {
  SolverDescription d;
  d.capabilities.max_mass = MassKind::state_dependent;
  d.capabilities.residual_form = true;
  d.capabilities.max_dae_index = 2;
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
  static const IdaOptions defaults;  // a named object: GCC 12 misreads a temporary's string as uninitialised
  d.options = ida_options().describe(defaults);
  return d;
}

SolveOutcome IdaSolver::solve(ProblemView& problem, const SolveRequest& req, OutputSink& sink) {
  SolveOutcome out;
  out.t_reached = req.t0;
  IdaOptions options;
  if (std::string why; !read_sundials_options(ida_options(), problem, req, options, &why))
    return {Status::invalid_input, why, req.t0};
  if (const std::string why = KrylovSupport::refusal(options.linear, req); !why.empty())
    return {Status::unsupported_problem, why, req.t0};
  if (req.wants_adjoint()) return ida_adjoint_solve(problem, req, sink, options);
  const Eigen::Index n = problem.size();
  Model model(problem, req);
  Eigen::VectorXd y0 = req.y0, yp0 = Eigen::VectorXd::Zero(n);

  // Mass-matrix form: M once (constant M), y'0 from M y' = f unless given, and the shared check.
  const bool constant_mass = !problem.residual_only() && problem.mass_kind() <= MassKind::constant;
  std::string init_note;
  if (!initial_state(problem, req, model, constant_mass, y0, yp0, &init_note, &out)) return out;

  if (!choose_jacobian(problem, req, options, constant_mass, model, &out)) return out;
  const std::string& solver_choice = options.linear.linear_solver;

  int max_index = 1;
  for (Eigen::Index i = 0; i < n; ++i) max_index = std::max(max_index, problem.index_of(i));
  const std::string& sup = options.suppress_alg;
  const bool suppress = sup == "on" || (sup == "auto" && (req.suppress_algebraic || max_index >= 2));
  const int max_order = options.max_order;
  const int max_nonlinear = options.max_nonlinear_iterations;

  const std::vector<double> h0s = first_steps(problem, req, options, constant_mass, model, y0);

  if (const std::string why = sensitivities_refused(problem, model, max_index); !why.empty())
    return {Status::unsupported_problem, why, req.t0};
  // The points at t0; with sensitivities after IDACalcIC has made s0 consistent (below).
  Ida* current = nullptr;
  if (model.sensitivities)
    sink.sensitivities_from([&](double t, Eigen::MatrixXd& s) { return current && current->interpolate_sensitivities(t, s); });
  bool t0_emitted = false;
  auto emit_t0 = [&](const Eigen::VectorXd& y) {
    if (t0_emitted) return true;
    t0_emitted = true;
    if (req.output == OutputMode::every_step && !sink.emit(req.t0, y)) return false;
    for (std::size_t k = 0; k < req.saveat.size() && req.saveat[k] == req.t0; ++k)
      if (!sink.emit(req.t0, y)) return false;
    return true;
  };
  if (!model.sensitivities && !emit_t0(y0)) return {Status::stopped_by_observer, "", req.t0};

  // Output between the steps and events of an index-1 DAE: its algebraic components re-solved.
  const auto between_steps = AlgebraicProjection::for_solve(problem, req, constant_mass ? &model.mass : nullptr);
  Stats& stats = problem.stats();
  std::string retries;
  double used_h0 = 0.0;
  bool use_calc_ic = req.init == InitPolicy::fix_algebraic && !constant_mass;
  for (std::size_t attempt = 0; attempt < h0s.size();) {
    model.errors.last.clear();
    Ida ida(model, y0, yp0, h0s[attempt], solver_choice, max_order, max_nonlinear);
    ida.set_suppress(suppress);
    current = &ida;
    if (model.sensitivities) ida.start_sensitivities(model.sensitivities->initial());
    // A constant mass matrix: the core's service has made y consistent and y' follows
    // from M y' = f (algebraic y' do not enter F = M y' - f). IDACalcIC is for the
    // other forms; it cannot meet index-2 constraints (its Newton matrix is singular there).
    if (use_calc_ic) {
      const int flag = ida.calc_ic(first_output(req), options.calcic_line_search);
      if (flag < 0) {
        // The core's residual-form service also moves y where index-2 constraints ask
        // for it (the 17-variable slider crank); IDA then starts again from its values.
        ida.add_stats(stats);
        const std::string why = ida.flag_name(flag) + ": " + ida.message();
        Eigen::VectorXd y1 = req.y0, yp1 = req.yp0.size() == n ? req.yp0 : Eigen::VectorXd();
        const InitialisationOutcome core = initialise_residual(problem, req, y1, yp1);
        if (core.status != Status::success) {
          out.status = Status::inconsistent_initial_values;
          out.message = "IDACalcIC could not make the initial values consistent: " + why + "; nor could daekit's "
                        "service: " + core.message;
          return out;
        }
        y0 = y1, yp0 = yp1, use_calc_ic = false;
        init_note += "IDACalcIC failed (" + why + "); daekit's service: " +
                     (core.message.empty() ? std::string("the values are consistent within the tolerances")
                                           : core.message) +
                     "; ";
        continue;
      }
      ida.consistent_ic();
      init_note += "initial values made consistent by IDACalcIC (IDA_YA_YDP_INIT); ";
    } else if (model.sensitivities) {
      // y0 and y'0 are consistent already; IDACalcIC gives s0's algebraic and s'0's
      // differential components from the sensitivity equations at t0.
      if (const int flag = ida.calc_ic(first_output(req), options.calcic_line_search); flag < 0) {
        ida.add_stats(stats);
        return {Status::inconsistent_initial_values,
                "IDACalcIC could not make the initial sensitivities consistent: " + ida.flag_name(flag) + ": " +
                    ida.message(),
                req.t0};
      }
      ida.consistent_ic();
    }
    if (!emit_t0(ida.state())) return {Status::stopped_by_observer, "", req.t0};
    EventMonitor events(problem, req, sink);
    out = one_step_loop(ida, req, sink, static_cast<long>(req.max_steps - stats.steps), events, between_steps.get());
    ida.add_stats(stats);
    current = nullptr;
    used_h0 = h0s[attempt];
    // A fatal model failure (or an interrupt) is not the first step's size: no retry.
    const bool failed_at_start = !is_success(out.status) && !ida.model_gave_up() && ida.accepted_steps() == 0;
    if (!failed_at_start || attempt + 1 == h0s.size()) break;
    std::ostringstream m;
    m << (used_h0 == 0 ? std::string("IDA's own first step") : "h0=" + std::to_string(used_h0))
      << " failed at t0 (" << out.message << "); ";
    retries += m.str();
    ++attempt;
  }
  if (!retries.empty()) say_retries(retries, used_h0, out);
  if (is_success(out.status) && !init_note.empty()) out.message = init_note + out.message;
  return out;
}

}  // namespace daekit::plugins
