#include "cvode_adjoint.hpp"

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_ls.h>

#include <algorithm>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <optional>

#include "adjoint_support.hpp"
#include "cvode_newton.hpp"
#include "linear_algebra.hpp"
#include "status_codes.hpp"
#include "sundials_support.hpp"

namespace daekit::plugins {
namespace {

using namespace sundials;

// What CVODES' callbacks reach: the problem, the Jacobians forward and backward (each
// evaluated once per (t, y)), df/dp and the functional.
struct AdjointModel {
  ProblemView& problem;
  const SolveRequest& request;
  FunctionalTerms terms;
  MassMatrix mass;
  IterationMatrix forward;
  BackwardJacobian backward;
  bool use_matrix = false;
  ErrorCapture errors;
  Eigen::VectorXd jt_lambda;

  AdjointModel(ProblemView& p, const SolveRequest& r)
      : problem(p), request(r), terms(*r.adjoint, p.size(), static_cast<Eigen::Index>(p.np())), jt_lambda(p.size()) {}

  static int rhs(double t, N_Vector y, N_Vector out, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    return to_sundials(m->problem.rhs(t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(y), n),
                                      Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(out), n)));
  }
  static int jacobian(double t, N_Vector y, N_Vector fy, SUNMatrix jac, void* data, N_Vector, N_Vector, N_Vector) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> yv(N_VGetArrayPointer(y), n), fv(N_VGetArrayPointer(fy), n);
    if (const Eval e = m->forward.evaluate_jacobian(t, yv, fv); e != Eval::ok) return to_sundials(e);
    m->forward.assemble(0.0);  // W = 0 M - J
    if (m->forward.sparse()) {
      const Eigen::SparseMatrix<double> j = -m->forward.sparse_w();
      copy_sparse(j, jac);
    } else {
      copy_dense(-m->forward.dense_w(), jac);
    }
    return 0;
  }
  // g for the forward quadrature of the integral term's value.
  static int running_value(double t, N_Vector y, N_Vector q, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    return m->terms.running(t, N_VGetArrayPointer(y), N_VGetArrayPointer(q)) ? 0 : -1;
  }
  // lambda' = -J^T lambda - g_y.
  static int adjoint_rhs(double t, N_Vector y, N_Vector lambda, N_Vector out, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> yv(N_VGetArrayPointer(y), n), l(N_VGetArrayPointer(lambda), n);
    if (const Eval e = m->backward.at(m->problem, t, yv); e != Eval::ok) return to_sundials(e);
    m->backward.transpose_times(l, m->jt_lambda);
    Eigen::Map<Eigen::VectorXd> o(N_VGetArrayPointer(out), n);
    o = -m->jt_lambda;
    if (m->terms.has_running()) {
      if (!m->terms.running(t, yv.data(), nullptr)) return -1;
      o -= m->terms.g_y();
    }
    return 0;
  }
  // d(adjoint_rhs)/d lambda = -J^T = (0 M - J)^T.
  static int adjoint_jacobian(double t, N_Vector y, N_Vector, N_Vector, SUNMatrix jac, void* data, N_Vector, N_Vector,
                              N_Vector) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    if (const Eval e = m->backward.at(m->problem, t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(y), n));
        e != Eval::ok)
      return to_sundials(e);
    m->backward.transposed_w_into(0.0, jac);
    return 0;
  }
  static int gradient_rhs(double t, N_Vector y, N_Vector lambda, N_Vector out, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    return gradient_integrand(m->problem, m->terms, t, N_VGetArrayPointer(y), N_VGetArrayPointer(lambda),
                              N_VGetArrayPointer(out));
  }
};

// One adjoint solve: the forward pass with checkpoints, the data terms kept, the
// backward pass in segments between data times.
class CvodeAdjoint {
 public:
  CvodeAdjoint(AdjointModel& model, const std::string& linear_solver, const CvodeOptions& options)
      : m_(model), n_(model.problem.size()), np_(static_cast<Eigen::Index>(model.problem.np())), y_(n_, ctx_),
        lambda_(n_, ctx_), mu_(np_, ctx_), q_(1, ctx_), atol_(n_, ctx_), mu_atol_(np_, ctx_) {
    const SolveRequest& req = model.request;
    y_.map() = req.y0;
    for (Eigen::Index i = 0; i < n_; ++i) atol_.map()[i] = req.atol[i];
    mem_ = CVodeCreate(CV_BDF, ctx_);
    check(CVodeSetErrHandlerFn(mem_, &ErrorCapture::handler, &model.errors), "CVodeSetErrHandlerFn");
    check(CVodeInit(mem_, &AdjointModel::rhs, req.t0, y_), "CVodeInit");
    check(CVodeSVtolerances(mem_, req.rtol[0], atol_), "CVodeSVtolerances");
    check(CVodeSetUserData(mem_, &model), "CVodeSetUserData");
    check(CVodeSetMaxNumSteps(mem_, static_cast<long>(req.max_steps)), "CVodeSetMaxNumSteps");
    const bool klu = model.use_matrix && model.forward.sparse();
    pattern_t_ = klu ? Eigen::SparseMatrix<double>(model.forward.sparse_w().transpose()) : Eigen::SparseMatrix<double>();
    make_linear_solver(la_, y_, linear_solver, klu ? &model.forward.sparse_w() : nullptr, model.forward.ordering(), ctx_);
    check(CVodeSetLinearSolver(mem_, la_.solver, la_.matrix), "CVodeSetLinearSolver");
    if (model.use_matrix) check(CVodeSetJacFn(mem_, &AdjointModel::jacobian), "CVodeSetJacFn");
    check(set_direct_newton(mem_, options), "CVodeSetJacEvalFrequency/CVodeSetNonlinConvCoef");
    if (req.h0 > 0) check(CVodeSetInitStep(mem_, req.direction() * req.h0), "CVodeSetInitStep");
    if (req.hmax > 0) check(CVodeSetMaxStep(mem_, req.hmax), "CVodeSetMaxStep");
    // Sign constraints by CVODES' own step control (DK_CONSTRAINT_* are its codes): the
    // forward pass of an adjoint cannot roll steps back as one_step_loop's guard does.
    if (const std::int8_t* c = model.problem.constraints(); c && constrained_components(model.problem.info()) > 0) {
      constraints_.emplace(n_, ctx_);
      for (Eigen::Index i = 0; i < n_; ++i) constraints_->map()[i] = c[i];
      check(CVodeSetConstraints(mem_, *constraints_), "CVodeSetConstraints");
    }
    if (model.terms.has_running()) {
      q_.map().setZero();
      check(CVodeQuadInit(mem_, &AdjointModel::running_value, q_), "CVodeQuadInit");
      // G's integral in the error test.
      double g0 = 0;
      model.terms.running(req.t0, req.y0.data(), &g0);
      check(CVodeSetQuadErrCon(mem_, SUNTRUE), "CVodeSetQuadErrCon");
      check(CVodeQuadSStolerances(mem_, req.rtol[0], running_term_atol(req, g0)), "CVodeQuadSStolerances");
    }
    // Checkpoints every 100 steps; between the stored points CVODES' variable-degree
    // polynomial interpolation (CV_POLYNOMIAL), which follows BDF's own order.
    check(CVodeAdjInit(mem_, 100, CV_POLYNOMIAL), "CVodeAdjInit");
    linear_solver_ = linear_solver;
  }
  ~CvodeAdjoint() { CVodeFree(&mem_); }
  CvodeAdjoint(const CvodeAdjoint&) = delete;
  CvodeAdjoint& operator=(const CvodeAdjoint&) = delete;

  // The forward pass to tend: output as asked, the data terms at their times.
  SolveOutcome forward(OutputSink& sink) {
    // Never a step beyond tend (a model may not be defined there); the stops before it are
    // reached by interpolation (CV_NORMAL).
    CVodeSetStopTime(mem_, m_.request.tend);
    Eigen::VectorXd y = m_.request.y0;
    SolveOutcome out = forward_pass(m_.request, m_.terms, sink, y, [&](double stop, Eigen::VectorXd& at) {
      double t = 0;
      int checkpoints = 0;
      const int flag = CVodeF(mem_, stop, y_, &t, CV_NORMAL, &checkpoints);
      if (flag < 0) return SolveOutcome{cvode_status(flag), message(flag), t};
      at = y_.map();
      return SolveOutcome{Status::success, "", t};
    });
    y_end_ = y;
    return out;
  }

  // The backward pass from tend to t0; writes the gradient, dG/dy0 and G.
  SolveOutcome backward() {
    const SolveRequest& req = m_.request;
    FunctionalTerms& terms = m_.terms;
    double value = terms.data_value(), phi = 0;
    if (!terms.terminal(req.tend, y_end_, &phi)) return {Status::evaluation_failure, terms.failure(), req.tend};
    value += phi;
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(n_), gradient = Eigen::VectorXd::Zero(np_);
    for (const auto& [t, jump] : terms.jumps()) gradient += jump.jump_p;
    if (const auto at_end = terms.jumps().find(req.tend); at_end != terms.jumps().end())
      lambda += at_end->second.jump_y;
    if (terms.has_running()) {
      double t_reached = 0;
      CVodeGetQuad(mem_, &t_reached, q_);
      value += q_.map()[0];
    }
    int which = 0;
    if (const int flag = start_backward(lambda, value, &which); flag < 0)
      return {Status::internal_error, message(flag), req.tend};
    // Segments between data times, from the last to t0; the jump at each one's start.
    for (const double t : terms.backward_stops(req)) {
      if (const int flag = CVodeB(mem_, t, CV_NORMAL); flag < 0) return {cvode_status(flag), message(flag), t};
      double reached = 0;
      CVodeGetB(mem_, which, &reached, lambda_);
      CVodeGetQuadB(mem_, which, &reached, mu_);
      if (t == req.t0) break;
      lambda_.map() += terms.jumps().at(t).jump_y;
      CVodeReInitB(mem_, which, t, lambda_);
      CVodeQuadReInitB(mem_, which, mu_);
    }
    lambda = lambda_.map();
    if (const auto at_start = terms.jumps().find(req.t0); at_start != terms.jumps().end())
      lambda += at_start->second.jump_y;
    gradient += mu_.map();
    std::copy(gradient.data(), gradient.data() + np_, req.gradient);
    if (req.gradient_y0) std::copy(lambda.data(), lambda.data() + n_, req.gradient_y0);
    if (req.functional_value) *req.functional_value = value;
    return {Status::success, "", req.tend};
  }

  void add_stats(Stats& s) const {
    Counters c = counters(mem_);
    if (void* b = backward_mem()) c += counters(b);
    CVodeGetLastOrder(mem_, &c.order);
    CVodeGetLastStep(mem_, &c.h_last);
    add_counters(s, c, m_.use_matrix);
  }

 private:
  int start_backward(const Eigen::VectorXd& lambda, double value, int* which) {
    const SolveRequest& req = m_.request;
    lambda_.map() = lambda;
    mu_.map().setZero();
    int flag = CVodeCreateB(mem_, CV_BDF, which);
    if (flag >= 0) flag = CVodeInitB(mem_, *which, &AdjointModel::adjoint_rhs, req.tend, lambda_);
    if (flag >= 0) flag = CVodeSStolerancesB(mem_, *which, req.rtol[0], lambda_atol(req, m_.terms));
    if (flag >= 0) flag = CVodeSetUserDataB(mem_, *which, &m_);
    if (flag >= 0) flag = CVodeSetMaxNumStepsB(mem_, *which, static_cast<long>(req.max_steps));
    if (flag < 0) return flag;
    const bool klu = m_.use_matrix && m_.forward.sparse();
    make_linear_solver(la_back_, lambda_, linear_solver_, klu ? &pattern_t_ : nullptr, m_.forward.ordering(), ctx_);
    flag = CVodeSetLinearSolverB(mem_, *which, la_back_.solver, la_back_.matrix);
    if (flag >= 0) flag = CVodeSetJacFnB(mem_, *which, &AdjointModel::adjoint_jacobian);
    if (flag >= 0) flag = CVodeQuadInitB(mem_, *which, &AdjointModel::gradient_rhs, mu_);
    // The gradient's quadrature in the error test: its integrand follows y, whose fast
    // transients the steps chosen for lambda alone would miss (measured on HIRES: 2e-5
    // relative error at rtol 1e-11 without, agreement with differences to 1e-9 with).
    // Absolute tolerances: gradient_atol's.
    mu_atol_.map() = gradient_atol(m_.problem.info(), req.rtol[0], value);
    if (flag >= 0) flag = CVodeSetQuadErrConB(mem_, *which, SUNTRUE);
    if (flag >= 0) flag = CVodeQuadSVtolerancesB(mem_, *which, req.rtol[0], mu_atol_);
    which_ = *which;
    return flag;
  }

  void* backward_mem() const { return which_ >= 0 ? CVodeGetAdjCVodeBmem(mem_, which_) : nullptr; }

  static Counters counters(void* mem) {
    Counters c;
    CVodeGetNumSteps(mem, &c.steps);
    CVodeGetNumErrTestFails(mem, &c.error_test_failures);
    CVodeGetNumNonlinSolvConvFails(mem, &c.convergence_failures);
    CVodeGetNumJacEvals(mem, &c.jacobians);
    CVodeGetNumLinRhsEvals(mem, &c.difference_evaluations);
    CVodeGetNumLinSolvSetups(mem, &c.setups);
    CVodeGetNumNonlinSolvIters(mem, &c.newton_iterations);
    return c;
  }

  std::string message(int flag) const {
    return sundials::flag_name(&CVodeGetReturnFlagName, flag, "CVODES error") + ": " +
           last_message(m_.errors, m_.problem);
  }
  void check(int flag, const char* what) {
    if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + m_.errors.last);
  }

  AdjointModel& m_;
  Eigen::Index n_, np_;
  Context ctx_;
  Vector y_, lambda_, mu_, q_, atol_, mu_atol_;
  std::optional<Vector> constraints_;
  LinearAlgebra la_, la_back_;
  Eigen::SparseMatrix<double> pattern_t_;
  std::string linear_solver_;
  Eigen::VectorXd y_end_;
  int which_ = -1;
  void* mem_ = nullptr;
};

}  // namespace

SolveOutcome cvode_adjoint_solve(ProblemView& problem, const SolveRequest& req, OutputSink& sink,
                                 const CvodeOptions& options) {
  if (const std::string why = adjoint_refusal(problem, "cvode"); !why.empty()) return {Status::unsupported_problem, why, req.t0};
  AdjointModel model(problem, req);
  if (model.mass.setup(problem, req.t0, req.y0) != Eval::ok)
    return {Status::evaluation_failure, problem.last_message(), req.t0};
  const bool sparse = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  const bool dense_solver = options.linear.linear_solver == "dense" || options.linear.linear_solver == "core";
  if (sparse || (problem.has_analytic_jacobian() && req.jacobian != JacobianSource::finite_difference)) {
    model.forward.setup(problem, req, model.mass, !dense_solver);
    model.use_matrix = true;
  }
  // The backward problem always has our -J^T: CVODES could not difference J^T lambda.
  model.backward.matrix.setup(problem, req, model.mass, model.use_matrix && model.forward.sparse());
  problem.stats().jacobian_used =
      model.use_matrix && model.forward.analytic() ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
  if (!model.use_matrix) problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_DENSE;
  // The core's dense LU is for the forward Newton matrix only; both passes use SUNDIALS' own here.
  CvodeAdjoint adjoint(model, options.linear.linear_solver == "core" ? "dense" : options.linear.linear_solver, options);
  SolveOutcome out = adjoint.forward(sink);
  if (out.status == Status::success) {
    const SolveOutcome back = adjoint.backward();
    if (back.status != Status::success) out = {back.status, "in the backward (adjoint) pass: " + back.message, req.t0};
  }
  adjoint.add_stats(problem.stats());
  return out;
}

}  // namespace daekit::plugins
