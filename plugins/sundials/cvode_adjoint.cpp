#include "cvode_adjoint.hpp"

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_ls.h>

#include <algorithm>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <map>
#include <optional>

#include "linear_algebra.hpp"
#include "sundials_support.hpp"

namespace daekit::plugins {
namespace {

using namespace sundials;

// The functional's data terms at one time: r_k and their gradients, kept from the forward
// solve for the backward jumps.
struct DataTerms {
  Eigen::VectorXd jump_y;  // sum of r_k dr_k/dy
  Eigen::VectorXd jump_p;  // sum of r_k dr_k/dp
};

// What CVODES' callbacks reach: the problem, the Jacobians forward and backward (each
// evaluated once per (t, y)), df/dp and the functional.
struct AdjointModel {
  ProblemView& problem;
  const SolveRequest& request;
  const dk_functional& functional;
  MassMatrix mass;
  IterationMatrix forward, backward;
  bool use_matrix = false;
  ErrorCapture errors;
  Eigen::VectorXd f, g_y, g_p, jt_lambda;
  Eigen::SparseMatrix<double> wt;  // the backward matrix -J^T in W^T's pattern
  double jacobian_t = 0;
  Eigen::VectorXd jacobian_y;
  bool jacobian_valid = false;
  std::string failure;

  AdjointModel(ProblemView& p, const SolveRequest& r) : problem(p), request(r), functional(*r.adjoint) {
    const Eigen::Index n = p.size(), np = static_cast<Eigen::Index>(p.np());
    f.resize(n), g_y.setZero(n), g_p.setZero(np), jt_lambda.resize(n);
  }

  // df/dy at (t, y) for the backward problem, once per point CVODES asks at.
  Eval backward_jacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& y) {
    if (jacobian_valid && t == jacobian_t && y == jacobian_y) return Eval::ok;
    Eval e = problem.rhs(t, y, f);
    if (e == Eval::ok) e = backward.evaluate_jacobian(t, y, f);
    if (e != Eval::ok) return e;
    backward.assemble(0.0);  // W = -J
    jacobian_t = t, jacobian_y = y, jacobian_valid = true;
    return Eval::ok;
  }
  // g and its gradients at (t, y); false (with failure set) when the functional failed.
  bool running(double t, const double* y, double* g) {
    double value = 0;
    if (functional.running(functional.env, t, y, &value, g_y.data(), g_p.data()) != 0) {
      failure = "the functional's running term failed at t = " + std::to_string(t);
      return false;
    }
    if (g) *g = value;
    return true;
  }

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
    return m->running(t, N_VGetArrayPointer(y), N_VGetArrayPointer(q)) ? 0 : -1;
  }
  // lambda' = -J^T lambda - g_y.
  static int adjoint_rhs(double t, N_Vector y, N_Vector lambda, N_Vector out, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> yv(N_VGetArrayPointer(y), n), l(N_VGetArrayPointer(lambda), n);
    Eigen::Map<Eigen::VectorXd> o(N_VGetArrayPointer(out), n);
    if (const Eval e = m->backward_jacobian(t, yv); e != Eval::ok) return to_sundials(e);
    // W = -J, so W^T lambda = -J^T lambda.
    if (m->backward.sparse())
      o = m->backward.sparse_w().transpose() * l;
    else
      o.noalias() = m->backward.dense_w().transpose() * l;
    if (m->functional.running) {
      if (!m->running(t, yv.data(), nullptr)) return -1;
      o -= m->g_y;
    }
    return 0;
  }
  // d(adjoint_rhs)/d lambda = -J^T.
  static int adjoint_jacobian(double t, N_Vector y, N_Vector, N_Vector, SUNMatrix jac, void* data, N_Vector, N_Vector,
                              N_Vector) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    if (const Eval e = m->backward_jacobian(t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(y), n));
        e != Eval::ok)
      return to_sundials(e);
    if (m->backward.sparse()) {
      m->wt = m->backward.sparse_w().transpose();
      copy_sparse(m->wt, jac);
    } else {
      copy_dense(m->backward.dense_w().transpose(), jac);
    }
    return 0;
  }
  // mu' = -(f_p^T lambda + g_p): mu(t0) = integral of f_p^T lambda + g_p over [t0, T].
  static int gradient_rhs(double t, N_Vector y, N_Vector lambda, N_Vector out, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size(), np = static_cast<Eigen::Index>(m->problem.np());
    Eigen::Map<const Eigen::VectorXd> yv(N_VGetArrayPointer(y), n), l(N_VGetArrayPointer(lambda), n);
    Eigen::Map<Eigen::VectorXd> o(N_VGetArrayPointer(out), np);
    if (const Eval e = m->problem.dfdp_transpose_times(t, yv, l, o); e != Eval::ok) return to_sundials(e);
    o = -o;
    if (m->functional.running) {
      if (!m->running(t, yv.data(), nullptr)) return -1;
      o -= m->g_p;
    }
    return 0;
  }
};

Status cvode_status(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return Status::too_many_steps;
    case CV_TOO_MUCH_ACC: return Status::tolerances_too_small;
    case CV_ERR_FAILURE: return Status::error_test_failures;
    case CV_CONV_FAILURE: return Status::convergence_failures;
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL: return Status::singular_matrix;
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
    case CV_QRHSFUNC_FAIL: return Status::evaluation_failure;
    default: return Status::internal_error;
  }
}

// One adjoint solve: the forward pass with checkpoints, the data terms kept, the
// backward pass in segments between data times.
class CvodeAdjoint {
 public:
  CvodeAdjoint(AdjointModel& model, const std::string& linear_solver)
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
    if (req.h0 > 0) check(CVodeSetInitStep(mem_, req.direction() * req.h0), "CVodeSetInitStep");
    if (req.hmax > 0) check(CVodeSetMaxStep(mem_, req.hmax), "CVodeSetMaxStep");
    // Sign constraints by CVODES' own step control (DK_CONSTRAINT_* are its codes): the
    // forward pass of an adjoint cannot roll steps back as one_step_loop's guard does.
    if (const std::int8_t* c = model.problem.constraints(); c && constrained_components(model.problem.info()) > 0) {
      constraints_.emplace(n_, ctx_);
      for (Eigen::Index i = 0; i < n_; ++i) constraints_->map()[i] = c[i];
      check(CVodeSetConstraints(mem_, *constraints_), "CVodeSetConstraints");
    }
    if (model.functional.running) {
      q_.map().setZero();
      check(CVodeQuadInit(mem_, &AdjointModel::running_value, q_), "CVodeQuadInit");
      // G's integral in the error test, its absolute tolerance from its size at the start
      // (|g(t0)| over the span; the components' smallest atol there when g(t0) = 0).
      double g0 = 0;
      model.running(req.t0, req.y0.data(), &g0);
      const double span = std::abs(req.tend - req.t0);
      const double scale = g0 != 0 ? std::abs(g0) * span : req.atol.minCoeff() * span;
      check(CVodeSetQuadErrCon(mem_, SUNTRUE), "CVodeSetQuadErrCon");
      check(CVodeQuadSStolerances(mem_, req.rtol[0], req.rtol[0] * scale), "CVodeQuadSStolerances");
    }
    // Checkpoints every 100 steps, Hermite interpolation between the stored points (CVODES' default choice).
    check(CVodeAdjInit(mem_, 100, CV_POLYNOMIAL), "CVodeAdjInit");
    linear_solver_ = linear_solver;
  }
  ~CvodeAdjoint() { CVodeFree(&mem_); }
  CvodeAdjoint(const CvodeAdjoint&) = delete;
  CvodeAdjoint& operator=(const CvodeAdjoint&) = delete;

  // The forward pass to tend: output as asked, the data terms at their times.
  SolveOutcome forward(OutputSink& sink) {
    const SolveRequest& req = m_.request;
    const double dir = req.direction();
    std::vector<double> stops(req.saveat.begin(), req.saveat.end());
    for (std::size_t k = 0; k < m_.functional.ndata; ++k) stops.push_back(m_.functional.data_t[k]);
    stops.push_back(req.tend);
    std::sort(stops.begin(), stops.end(), [dir](double a, double b) { return dir * a < dir * b; });
    stops.erase(std::unique(stops.begin(), stops.end()), stops.end());
    double t = req.t0;
    Eigen::VectorXd y = req.y0;
    // Never a step beyond tend (a model may not be defined there); the stops before it are
    // reached by interpolation (CV_NORMAL).
    CVodeSetStopTime(mem_, req.tend);
    if (!at_stop(t, y, sink, true)) return ended(Status::stopped_by_observer, "", t);
    for (const double stop : stops) {
      if (stop == req.t0) continue;
      int checkpoints = 0;
      const int flag = CVodeF(mem_, stop, y_, &t, CV_NORMAL, &checkpoints);
      if (flag < 0) return ended(cvode_status(flag), message(flag), t);
      if (!m_.failure.empty()) return ended(Status::evaluation_failure, m_.failure, t);
      y = y_.map();
      if (!at_stop(stop, y, sink, true)) return ended(Status::stopped_by_observer, "", stop);
      if (!m_.failure.empty()) return ended(Status::evaluation_failure, m_.failure, stop);
    }
    y_end_ = y;
    return {Status::success, "", req.tend};
  }

  // The backward pass from tend to t0; writes the gradient, dG/dy0 and G.
  SolveOutcome backward() {
    const SolveRequest& req = m_.request;
    const dk_functional& g = m_.functional;
    double value = value_, phi = 0;
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(n_), gradient = Eigen::VectorXd::Zero(np_);
    if (g.terminal) {
      Eigen::VectorXd phi_y(n_), phi_p = Eigen::VectorXd::Zero(np_);
      if (g.terminal(g.env, y_end_.data(), &phi, phi_y.data(), phi_p.data()) != 0)
        return {Status::evaluation_failure, "the functional's terminal term failed", req.tend};
      lambda += phi_y, gradient += phi_p, value += phi;
    }
    for (const auto& [t, terms] : data_) gradient += terms.jump_p;
    if (const auto at_end = data_.find(req.tend); at_end != data_.end()) lambda += at_end->second.jump_y;
    if (g.running) {
      double t_reached = 0;
      CVodeGetQuad(mem_, &t_reached, q_);
      value += q_.map()[0];
    }
    int which = 0;
    if (const int flag = start_backward(lambda, value, &which); flag < 0)
      return {Status::internal_error, message(flag), req.tend};
    // Segments between data times, from the last to t0; the jump at each one's start.
    std::vector<double> times;
    for (const auto& [t, terms] : data_)
      if (t != req.tend && t != req.t0) times.push_back(t);
    std::sort(times.begin(), times.end(), [&](double a, double b) { return req.direction() * a > req.direction() * b; });
    times.push_back(req.t0);
    for (const double t : times) {
      if (const int flag = CVodeB(mem_, t, CV_NORMAL); flag < 0) return {cvode_status(flag), message(flag), t};
      double reached = 0;
      CVodeGetB(mem_, which, &reached, lambda_);
      CVodeGetQuadB(mem_, which, &reached, mu_);
      if (t == req.t0) break;
      lambda_.map() += data_.at(t).jump_y;
      CVodeReInitB(mem_, which, t, lambda_);
      CVodeQuadReInitB(mem_, which, mu_);
    }
    lambda = lambda_.map();
    if (const auto at_start = data_.find(req.t0); at_start != data_.end()) lambda += at_start->second.jump_y;
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
  // At t0 and each stop: the data terms there, and the point to the sink when `emit`.
  bool at_stop(double t, const Eigen::VectorXd& y, OutputSink& sink, bool emit) {
    const dk_functional& g = m_.functional;
    Eigen::VectorXd dr_dy(n_), dr_dp(np_);
    for (std::size_t k = 0; k < g.ndata; ++k) {
      if (g.data_t[k] != t) continue;
      double r = 0;
      dr_dy.setZero(), dr_dp.setZero();
      if (g.data_term(g.env, k, y.data(), &r, dr_dy.data(), dr_dp.data()) != 0) {
        m_.failure = "the functional's data term " + std::to_string(k + 1) + " failed";
        return true;
      }
      DataTerms& terms = data_[t];
      if (terms.jump_y.size() == 0) terms.jump_y.setZero(n_), terms.jump_p.setZero(np_);
      terms.jump_y += r * dr_dy, terms.jump_p += r * dr_dp;
      value_ += 0.5 * r * r;
    }
    return !emit || sink.emit(t, y);
  }

  int start_backward(const Eigen::VectorXd& lambda, double value, int* which) {
    const SolveRequest& req = m_.request;
    lambda_.map() = lambda;
    mu_.map().setZero();
    int flag = CVodeCreateB(mem_, CV_BDF, which);
    if (flag >= 0) flag = CVodeInitB(mem_, *which, &AdjointModel::adjoint_rhs, req.tend, lambda_);
    if (flag >= 0) flag = CVodeSVtolerancesB(mem_, *which, req.rtol[0], atol_);
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
    // Absolute tolerance: a thousandth of rtol G per typical magnitude of p_k.
    for (Eigen::Index k = 0; k < np_; ++k) {
      const dk_problem_info& info = m_.problem.info();
      const double typical = info.p_scale && info.p_scale[k] > 0 ? info.p_scale[k]
                             : info.p_nominal[k] != 0        ? std::abs(info.p_nominal[k])
                                                             : 1.0;
      mu_atol_.map()[k] = 1e-3 * req.rtol[0] * std::max(std::abs(value), 1e-300) / typical;
    }
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

  SolveOutcome ended(Status status, std::string text, double t) { return {status, std::move(text), t}; }
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
  std::map<double, DataTerms> data_;  // by time
  Eigen::VectorXd y_end_;
  double value_ = 0;  // the data terms' part of G
  int which_ = -1;
  void* mem_ = nullptr;
};

// What the adjoint path does not take, in words; "" when it takes the problem.
std::string refusal(ProblemView& problem) {
  if (problem.nroots() > 0 || problem.has_time_events() || problem.wants_step_notification())
    return "cvode's adjoint does not cross events yet: problem '" + std::string(problem.info().name) +
           "' has root functions, time events or step notifications";
  if (problem.np() == 0) return "problem '" + std::string(problem.info().name) + "' declares no real parameters";
  if (!problem.has_parameter_derivative()) return "problem gives no df/dp, which the adjoint's gradient needs";
  return "";
}

}  // namespace

SolveOutcome cvode_adjoint_solve(ProblemView& problem, const SolveRequest& req, OutputSink& sink,
                                 const CvodeOptions& options) {
  if (const std::string why = refusal(problem); !why.empty()) return {Status::unsupported_problem, why, req.t0};
  AdjointModel model(problem, req);
  if (model.mass.setup(problem, req.t0, req.y0) != Eval::ok)
    return {Status::evaluation_failure, problem.last_message(), req.t0};
  const bool sparse = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  const bool dense_solver = options.linear_solver == "dense" || options.linear_solver == "core";
  if (sparse || (problem.has_analytic_jacobian() && req.jacobian != JacobianSource::finite_difference)) {
    model.forward.setup(problem, req, model.mass, !dense_solver);
    model.use_matrix = true;
  }
  // The backward problem always has our -J^T: CVODES could not difference J^T lambda.
  model.backward.setup(problem, req, model.mass, model.use_matrix && model.forward.sparse());
  problem.stats().jacobian_used =
      model.use_matrix && model.forward.analytic() ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
  if (!model.use_matrix) problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_DENSE;
  // The core's dense LU is for the forward Newton matrix only; both passes use SUNDIALS' own here.
  CvodeAdjoint adjoint(model, options.linear_solver == "core" ? "dense" : options.linear_solver);
  SolveOutcome out = adjoint.forward(sink);
  if (out.status == Status::success) {
    const SolveOutcome back = adjoint.backward();
    if (back.status != Status::success) out = {back.status, "in the backward (adjoint) pass: " + back.message, req.t0};
  }
  adjoint.add_stats(problem.stats());
  return out;
}

}  // namespace daekit::plugins
