#include "ida_adjoint.hpp"

#include <idas/idas.h>
#include <idas/idas_ls.h>

#include <Eigen/SparseLU>
#include <algorithm>
#include <daekit/numerics/consistency.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/solve_request.hpp>
#include <optional>
#include <vector>

#include "adjoint_support.hpp"
#include "linear_algebra.hpp"
#include "status_codes.hpp"
#include "sundials_support.hpp"

namespace daekit::plugins {
namespace {

using namespace sundials;

// What IDAS' callbacks reach: the problem, the Jacobians forward and backward (the
// backward one evaluated once per (t, y)), M, df/dp and the functional.
struct AdjointModel {
  ProblemView& problem;
  const SolveRequest& request;
  FunctionalTerms terms;
  MassMatrix mass;
  IterationMatrix forward;
  BackwardJacobian backward;
  bool use_matrix = false;
  ErrorCapture errors;
  Eigen::VectorXd f, jt_lambda, mt_lambda;
  std::vector<Eigen::Index> algebraic_rows;  // M's zero rows: the algebraic equations
  Eigen::SparseMatrix<double> bt;  // B^T (factor_b), factorised at (b_t, b_y)
  Eigen::SparseLU<Eigen::SparseMatrix<double>> b_lu;
  double b_t = 0;
  Eigen::VectorXd b_y;

  AdjointModel(ProblemView& p, const SolveRequest& r)
      : problem(p), request(r), terms(*r.adjoint, p.size(), static_cast<Eigen::Index>(p.np())), f(p.size()),
        jt_lambda(p.size()), mt_lambda(p.size()) {}

  // The algebraic equations: rows of M without a non-zero entry.
  void find_algebraic_rows() {
    std::vector<bool> used(static_cast<std::size_t>(problem.size()), false);
    mass.for_each_nonzero([&](Eigen::Index i, Eigen::Index, double) { used[static_cast<std::size_t>(i)] = true; });
    for (Eigen::Index i = 0; i < problem.size(); ++i)
      if (!used[static_cast<std::size_t>(i)]) algebraic_rows.push_back(i);
  }

  void mass_transpose_times(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
    out.setZero(x.size());
    mass.for_each_nonzero([&](Eigen::Index i, Eigen::Index j, double v) { out[j] += v * x[i]; });
  }

  // B^T at (t, y), factorised: B has M's rows for the differential equations and J's
  // rows for the algebraic ones, non-singular exactly when the DAE has index 1. It serves
  // both the jumps' projection and the adjoint's consistent values, at the same points:
  // factorised once per point.
  bool factor_b(double t, const Eigen::VectorXd& y, std::string* why) {
    if (b_y.size() == y.size() && t == b_t && y == b_y) return true;
    if (const Eval e = backward.at(problem, t, y); e != Eval::ok) return *why = problem.last_message(), false;
    const Eigen::Index n = problem.size();
    std::vector<bool> algebraic(static_cast<std::size_t>(n), false);
    for (const Eigen::Index i : algebraic_rows) algebraic[static_cast<std::size_t>(i)] = true;
    std::vector<Eigen::Triplet<double>> entries;
    mass.for_each_nonzero([&](Eigen::Index i, Eigen::Index j, double v) { entries.emplace_back(j, i, v); });
    if (backward.matrix.sparse()) {
      const Eigen::SparseMatrix<double>& jac = backward.matrix.sparse_jacobian();
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::SparseMatrix<double>::InnerIterator it(jac, j); it; ++it)
          if (algebraic[static_cast<std::size_t>(it.row())]) entries.emplace_back(j, it.row(), it.value());
    } else {
      for (const Eigen::Index i : algebraic_rows)
        for (Eigen::Index j = 0; j < n; ++j)
          if (const double v = backward.matrix.dense_jacobian()(i, j); v != 0.0) entries.emplace_back(j, i, v);
    }
    bt.resize(n, n);
    bt.setFromTriplets(entries.begin(), entries.end());
    b_lu.compute(bt);
    if (b_lu.info() != Eigen::Success) return *why = singular(t), false;
    b_t = t, b_y = y;
    return true;
  }
  // x with B^T x = rhs, checked: a nearly singular B (index > 1 there) is refused.
  bool solve_bt(double t, const Eigen::VectorXd& rhs, Eigen::VectorXd& x, std::string* why) {
    x = b_lu.solve(rhs);
    const double scale = std::max(rhs.cwiseAbs().maxCoeff(), 1e-300);
    if (x.allFinite() && (bt * x - rhs).cwiseAbs().maxCoeff() <= 1e-8 * scale) return true;
    *why = singular(t);
    return false;
  }
  static std::string singular(double t) {
    return "at t = " + std::to_string(t) +
           " the algebraic equations' Jacobian with respect to the algebraic components is singular (not index 1)";
  }

  // A data term's (or phi's) gradient c at (t, y) as the backward pass takes it: lambda's
  // jump z (B^T z = c) on the differential rows, and -f_p^T nu (nu: z on the algebraic
  // rows) added to the gradient's jump. For an ODE with M = I, z = c.
  bool project(double t, const Eigen::VectorXd& y, DataJump& jump, std::string* why) {
    if (algebraic_rows.empty() && mass.is_identity()) return true;
    Eigen::VectorXd z;
    if (!factor_b(t, y, why) || !solve_bt(t, jump.jump_y, z, why)) return false;
    Eigen::VectorXd nu = Eigen::VectorXd::Zero(problem.size()), p_term(static_cast<Eigen::Index>(problem.np()));
    for (const Eigen::Index i : algebraic_rows) nu[i] = z[i], z[i] = 0.0;
    if (problem.dfdp_transpose_times(t, y, nu, p_term) != Eval::ok) return *why = problem.last_message(), false;
    jump.jump_y = z;
    jump.jump_p -= p_term;
    return true;
  }

  // lambda's algebraic rows and lambda''s differential ones from the adjoint DAE at (t, y),
  // lambda's differential rows given: M^T lambda' + J^T lambda = -g_y is, in the unknowns
  // (lambda'_D, lambda_A), B^T x = -(g_y + J^T lambda_D). Linear: one exact solve (IDAS'
  // IDACalcICB would iterate, and its Newton test fails on rounding at rtol 1e-10).
  bool consistent(double t, const Eigen::VectorXd& y, Eigen::VectorXd& lambda, Eigen::VectorXd& lambda_p,
                  std::string* why) {
    Eigen::VectorXd known = lambda, rhs, x;
    for (const Eigen::Index i : algebraic_rows) known[i] = 0.0;
    if (!factor_b(t, y, why)) return false;
    backward.transpose_times(known, rhs);
    rhs = -rhs;
    if (terms.has_running()) {
      if (!terms.running(t, y.data(), nullptr)) return *why = terms.failure(), false;
      rhs -= terms.g_y();
    }
    if (!solve_bt(t, rhs, x, why)) return false;
    lambda_p = x;
    for (const Eigen::Index i : algebraic_rows) lambda[i] = x[i], lambda_p[i] = 0.0;
    return true;
  }

  static int residual(double t, N_Vector yy, N_Vector yp, N_Vector rr, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    using Map = Eigen::Map<const Eigen::VectorXd>;
    return to_sundials(m->problem.residual(t, Map(N_VGetArrayPointer(yy), n), Map(N_VGetArrayPointer(yp), n),
                                           Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(rr), n)));
  }
  // dF/dy + cj dF/dy' = cj M - J = W(cj).
  static int jacobian(double t, double cj, N_Vector yy, N_Vector, N_Vector, SUNMatrix jac, void* data, N_Vector,
                      N_Vector, N_Vector) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> y(N_VGetArrayPointer(yy), n);
    Eval e = m->forward.analytic() ? Eval::ok : m->problem.rhs(t, y, m->f);
    if (e == Eval::ok) e = m->forward.evaluate_jacobian(t, y, m->f);
    if (e != Eval::ok) return to_sundials(e);
    m->forward.assemble(cj);
    m->forward.sparse() ? copy_sparse(m->forward.sparse_w(), jac) : copy_dense(m->forward.dense_w(), jac);
    return 0;
  }
  // g for the forward quadrature of the integral term's value.
  static int running_value(double t, N_Vector y, N_Vector, N_Vector q, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    return m->terms.running(t, N_VGetArrayPointer(y), N_VGetArrayPointer(q)) ? 0 : -1;
  }
  // The adjoint DAE as a residual: -(M^T lambda' + J^T lambda + g_y), so that its
  // Jacobian, -J^T - cjB M^T, is W(-cjB)^T.
  static int adjoint_residual(double t, N_Vector yy, N_Vector, N_Vector lb, N_Vector lpb, N_Vector rr, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    Eigen::Map<const Eigen::VectorXd> y(N_VGetArrayPointer(yy), n);
    if (const Eval e = m->backward.at(m->problem, t, y); e != Eval::ok) return to_sundials(e);
    m->backward.transpose_times(Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(lb), n), m->jt_lambda);
    m->mass_transpose_times(Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(lpb), n), m->mt_lambda);
    Eigen::Map<Eigen::VectorXd> r(N_VGetArrayPointer(rr), n);
    r = -(m->mt_lambda + m->jt_lambda);
    if (m->terms.has_running()) {
      if (!m->terms.running(t, y.data(), nullptr)) return -1;
      r -= m->terms.g_y();
    }
    return 0;
  }
  static int adjoint_jacobian(double t, double cjb, N_Vector yy, N_Vector, N_Vector, N_Vector, N_Vector, SUNMatrix jac,
                              void* data, N_Vector, N_Vector, N_Vector) {
    auto* m = static_cast<AdjointModel*>(data);
    const Eigen::Index n = m->problem.size();
    if (const Eval e = m->backward.at(m->problem, t, Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(yy), n));
        e != Eval::ok)
      return to_sundials(e);
    m->backward.transposed_w_into(-cjb, jac);
    return 0;
  }
  static int gradient_rhs(double t, N_Vector yy, N_Vector, N_Vector lb, N_Vector, N_Vector out, void* data) {
    auto* m = static_cast<AdjointModel*>(data);
    return gradient_integrand(m->problem, m->terms, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(lb),
                              N_VGetArrayPointer(out));
  }
};

// One adjoint solve: the forward pass with checkpoints, the data terms kept, the
// backward pass in segments between data times, made consistent at each one's start.
class IdaAdjoint {
 public:
  IdaAdjoint(AdjointModel& model, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0,
             const std::string& linear_solver, int max_order)
      : m_(model), n_(model.problem.size()), np_(static_cast<Eigen::Index>(model.problem.np())), y_(n_, ctx_),
        yp_(n_, ctx_), lambda_(n_, ctx_), lambda_p_(n_, ctx_), mu_(np_, ctx_), q_(1, ctx_), atol_(n_, ctx_),
        mu_atol_(np_, ctx_), id_(n_, ctx_), id_backward_(n_, ctx_), linear_solver_(linear_solver),
        max_order_(max_order) {
    const SolveRequest& req = model.request;
    y_.map() = y0, yp_.map() = yp0;
    for (Eigen::Index i = 0; i < n_; ++i) atol_.map()[i] = req.atol[i];
    for (Eigen::Index i = 0; i < n_; ++i) id_.map()[i] = model.problem.is_algebraic(i) ? 0.0 : 1.0;
    id_backward_.map().setOnes();
    for (const Eigen::Index i : model.algebraic_rows) id_backward_.map()[i] = 0.0;
    mem_ = IDACreate(ctx_);
    check(IDASetErrHandlerFn(mem_, &ErrorCapture::handler, &model.errors), "IDASetErrHandlerFn");
    check(IDAInit(mem_, &AdjointModel::residual, req.t0, y_, yp_), "IDAInit");
    check(IDASVtolerances(mem_, req.rtol[0], atol_), "IDASVtolerances");
    check(IDASetUserData(mem_, &model), "IDASetUserData");
    check(IDASetId(mem_, id_), "IDASetId");
    check(IDASetMaxOrd(mem_, max_order), "IDASetMaxOrd");
    check(IDASetMaxNumSteps(mem_, static_cast<long>(req.max_steps)), "IDASetMaxNumSteps");
    const bool klu = model.use_matrix && model.forward.sparse();
    pattern_t_ = klu ? Eigen::SparseMatrix<double>(model.forward.sparse_w().transpose()) : Eigen::SparseMatrix<double>();
    make_linear_solver(la_, y_, linear_solver, klu ? &model.forward.sparse_w() : nullptr, model.forward.ordering(), ctx_);
    check(IDASetLinearSolver(mem_, la_.solver, la_.matrix), "IDASetLinearSolver");
    if (model.use_matrix) check(IDASetJacFn(mem_, &AdjointModel::jacobian), "IDASetJacFn");
    if (req.h0 > 0) check(IDASetInitStep(mem_, req.direction() * req.h0), "IDASetInitStep");
    if (req.hmax > 0) check(IDASetMaxStep(mem_, req.hmax), "IDASetMaxStep");
    // Sign constraints by IDA's own step control (DK_CONSTRAINT_* are SUNDIALS' codes).
    if (const std::int8_t* c = model.problem.constraints(); c && constrained_components(model.problem.info()) > 0) {
      constraints_.emplace(n_, ctx_);
      for (Eigen::Index i = 0; i < n_; ++i) constraints_->map()[i] = c[i];
      check(IDASetConstraints(mem_, *constraints_), "IDASetConstraints");
    }
    if (model.terms.has_running()) {
      q_.map().setZero();
      check(IDAQuadInit(mem_, &AdjointModel::running_value, q_), "IDAQuadInit");
      double g0 = 0;  // G's integral in the error test
      model.terms.running(req.t0, y0.data(), &g0);
      check(IDASetQuadErrCon(mem_, SUNTRUE), "IDASetQuadErrCon");
      check(IDAQuadSStolerances(mem_, req.rtol[0], running_term_atol(req, g0)), "IDAQuadSStolerances");
    }
    // Checkpoints every 100 steps; between the stored points IDAS' polynomial
    // interpolation, which follows BDF's own order.
    check(IDAAdjInit(mem_, 100, IDA_POLYNOMIAL), "IDAAdjInit");
  }
  ~IdaAdjoint() { IDAFree(&mem_); }
  IdaAdjoint(const IdaAdjoint&) = delete;
  IdaAdjoint& operator=(const IdaAdjoint&) = delete;

  // The forward pass to tend: output as asked, the data terms at their times.
  SolveOutcome forward(OutputSink& sink) {
    IDASetStopTime(mem_, m_.request.tend);  // never a step beyond tend
    Eigen::VectorXd y = y_.map();
    SolveOutcome out = forward_pass(m_.request, m_.terms, sink, y, [&](double stop, Eigen::VectorXd& at) {
      double t = 0;
      int checkpoints = 0;
      const int flag = IDASolveF(mem_, stop, &t, y_, yp_, IDA_NORMAL, &checkpoints);
      if (flag < 0) return SolveOutcome{ida_status(flag), message(flag), t};
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
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(np_);
    for (auto& [t, jump] : terms.jumps()) {
      if (std::string why; !m_.project(t, jump.y, jump, &why)) return {Status::evaluation_failure, why, t};
      gradient += jump.jump_p;
    }
    lambda_.map().setZero(), lambda_p_.map().setZero();
    if (const auto at_end = terms.jumps().find(req.tend); at_end != terms.jumps().end())
      lambda_.map() = at_end->second.jump_y;
    if (terms.has_running()) {
      double t_reached = 0;
      IDAGetQuad(mem_, &t_reached, q_);
      value += q_.map()[0];
    }
    if (std::string why; !consistent(req.tend, y_end_, why)) return {Status::evaluation_failure, why, req.tend};
    if (const int flag = start_backward(value); flag < 0) return {ida_status(flag), message(flag), req.tend};
    // Segments between data times, from the last to t0; the jump at each one's start.
    for (const double t : terms.backward_stops(req)) {
      if (const int flag = IDASolveB(mem_, t, IDA_NORMAL); flag < 0) return {ida_status(flag), message(flag), t};
      double reached = 0;
      IDAGetB(mem_, which_, &reached, lambda_, lambda_p_);
      IDAGetQuadB(mem_, which_, &reached, mu_);
      if (t == req.t0) break;
      const DataJump& jump = terms.jumps().at(t);
      lambda_.map() += jump.jump_y;
      if (std::string why; !consistent(t, jump.y, why)) return {Status::evaluation_failure, why, t};
      IDAReInitB(mem_, which_, t, lambda_, lambda_p_);
      IDAQuadReInitB(mem_, which_, mu_);
    }
    Eigen::VectorXd lambda = lambda_.map(), gradient_y0;
    if (const auto at_start = terms.jumps().find(req.t0); at_start != terms.jumps().end())
      lambda += at_start->second.jump_y;
    gradient += mu_.map();
    m_.mass_transpose_times(lambda, gradient_y0);  // the differential components' dG/dy0
    std::copy(gradient.data(), gradient.data() + np_, req.gradient);
    if (req.gradient_y0) std::copy(gradient_y0.data(), gradient_y0.data() + n_, req.gradient_y0);
    if (req.functional_value) *req.functional_value = value;
    return {Status::success, "", req.tend};
  }

  void add_stats(Stats& s) const {
    Counters c = counters(mem_);
    if (which_ >= 0) c += counters(IDAGetAdjIDABmem(mem_, which_));
    IDAGetLastOrder(mem_, &c.order);
    IDAGetLastStep(mem_, &c.h_last);
    add_counters(s, c, m_.use_matrix);
  }

 private:
  // The backward problem from tend, lambda_ its start; its linear solver and the
  // gradient's quadrature.
  int start_backward(double value) {
    const SolveRequest& req = m_.request;
    mu_.map().setZero();
    int flag = IDACreateB(mem_, &which_);
    if (flag < 0) return flag;
    IDASetErrHandlerFn(IDAGetAdjIDABmem(mem_, which_), &ErrorCapture::handler, &m_.errors);
    flag = IDAInitB(mem_, which_, &AdjointModel::adjoint_residual, req.tend, lambda_, lambda_p_);
    if (flag >= 0) flag = IDASStolerancesB(mem_, which_, req.rtol[0], lambda_atol(req, m_.terms));
    if (flag >= 0) flag = IDASetUserDataB(mem_, which_, &m_);
    if (flag >= 0) flag = IDASetIdB(mem_, which_, id_backward_);
    if (flag >= 0) flag = IDASetMaxOrdB(mem_, which_, max_order_);
    if (flag >= 0) flag = IDASetMaxNumStepsB(mem_, which_, static_cast<long>(req.max_steps));
    if (flag < 0) return flag;
    const bool klu = m_.use_matrix && m_.forward.sparse();
    make_linear_solver(la_back_, lambda_, linear_solver_, klu ? &pattern_t_ : nullptr, m_.forward.ordering(), ctx_);
    flag = IDASetLinearSolverB(mem_, which_, la_back_.solver, la_back_.matrix);
    if (flag >= 0) flag = IDASetJacFnB(mem_, which_, &AdjointModel::adjoint_jacobian);
    if (flag >= 0) flag = IDAQuadInitB(mem_, which_, &AdjointModel::gradient_rhs, mu_);
    // The gradient's quadrature in the error test (as in cvode's adjoint: its integrand
    // follows y's transients, which lambda's steps alone would miss).
    mu_atol_.map() = gradient_atol(m_.problem.info(), req.rtol[0], value);
    if (flag >= 0) flag = IDASetQuadErrConB(mem_, which_, SUNTRUE);
    if (flag >= 0) flag = IDAQuadSVtolerancesB(mem_, which_, req.rtol[0], mu_atol_);
    return flag;
  }

  // lambda_ and lambda_p_ made consistent at (t, y) (AdjointModel::consistent).
  bool consistent(double t, const Eigen::VectorXd& y, std::string& why) {
    Eigen::VectorXd lambda = lambda_.map(), lambda_p;
    if (!m_.consistent(t, y, lambda, lambda_p, &why)) return false;
    lambda_.map() = lambda, lambda_p_.map() = lambda_p;
    return true;
  }

  static Counters counters(void* mem) {
    Counters c;
    IDAGetNumSteps(mem, &c.steps);
    IDAGetNumErrTestFails(mem, &c.error_test_failures);
    IDAGetNumNonlinSolvConvFails(mem, &c.convergence_failures);
    IDAGetNumJacEvals(mem, &c.jacobians);
    IDAGetNumLinResEvals(mem, &c.difference_evaluations);
    IDAGetNumLinSolvSetups(mem, &c.setups);
    IDAGetNumNonlinSolvIters(mem, &c.newton_iterations);
    return c;
  }
  std::string message(int flag) const {
    return sundials::flag_name(&IDAGetReturnFlagName, flag, "IDAS error") + ": " + last_message(m_.errors, m_.problem);
  }
  void check(int flag, const char* what) {
    if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + m_.errors.last);
  }

  AdjointModel& m_;
  Eigen::Index n_, np_;
  Context ctx_;
  Vector y_, yp_, lambda_, lambda_p_, mu_, q_, atol_, mu_atol_, id_, id_backward_;
  std::optional<Vector> constraints_;
  LinearAlgebra la_, la_back_;
  Eigen::SparseMatrix<double> pattern_t_;
  std::string linear_solver_;
  int max_order_;
  Eigen::VectorXd y_end_;
  int which_ = -1;
  void* mem_ = nullptr;
};

// What ida's adjoint does not take beyond adjoint_refusal's, in words; "" when it takes it.
std::string ida_refusal(ProblemView& problem) {
  const std::string name = problem.info().name;
  if (problem.residual_only() || problem.mass_kind() > MassKind::constant)
    return "ida's adjoint takes problems M y' = f with a constant M; problem '" + name +
           "' is a residual or has a varying M";
  const int index = max_dae_index(problem.info());
  if (index >= 2)
    return "ida's adjoint takes ODEs and index-1 DAEs (the adjoint's end and jump conditions are projected for index 1 "
           "only); problem '" +
           name + "' has index-" + std::to_string(index) + " components";
  return adjoint_refusal(problem, "ida");
}

// Consistent (y0, y'0): the core's service unless --init trust, y' from M y' = f.
SolveOutcome initial_state(AdjointModel& model, Eigen::VectorXd& y0, Eigen::VectorXd& yp0) {
  ProblemView& problem = model.problem;
  const SolveRequest& req = model.request;
  if (req.init != InitPolicy::trust) {
    const InitialisationOutcome init = initialise(problem, req, model.mass, y0);
    if (init.status != Status::success) return {init.status, init.message, req.t0};
  }
  if (req.yp0.size() == y0.size() && y0 == req.y0) {
    yp0 = req.yp0;
    return {Status::success, "", req.t0};
  }
  Eigen::VectorXd f(y0.size());
  if (problem.rhs(req.t0, y0, f) != Eval::ok) return {Status::evaluation_failure, "at t0: " + problem.last_message(), req.t0};
  derivative_from_mass(model.mass, problem, f, yp0);
  return {Status::success, "", req.t0};
}

}  // namespace

SolveOutcome ida_adjoint_solve(ProblemView& problem, const SolveRequest& req, OutputSink& sink,
                               const IdaOptions& options) {
  if (const std::string why = ida_refusal(problem); !why.empty()) return {Status::unsupported_problem, why, req.t0};
  const bool sparse = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  if (options.linear.linear_solver == "klu" && !sparse)
    return {Status::invalid_input, "linear_solver=klu needs a problem with a sparse Jacobian pattern", req.t0};
  AdjointModel model(problem, req);
  if (model.mass.setup(problem, req.t0, req.y0) != Eval::ok)
    return {Status::evaluation_failure, problem.last_message(), req.t0};
  model.find_algebraic_rows();
  Eigen::VectorXd y0 = req.y0, yp0;
  if (SolveOutcome init = initial_state(model, y0, yp0); init.status != Status::success) return init;
  const bool dense_solver = options.linear.linear_solver == "dense" || options.linear.linear_solver == "core";
  if (sparse || (problem.has_analytic_jacobian() && req.jacobian != JacobianSource::finite_difference)) {
    model.forward.setup(problem, req, model.mass, !dense_solver);
    model.use_matrix = true;
  }
  // The backward problem always has our J^T: IDAS could not difference it.
  model.backward.matrix.setup(problem, req, model.mass, model.use_matrix && model.forward.sparse());
  problem.stats().jacobian_used =
      model.use_matrix && model.forward.analytic() ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
  if (!model.use_matrix) problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_DENSE;
  // The core's dense LU serves only the forward solvers' Newton matrix; both passes use SUNDIALS' own here.
  IdaAdjoint adjoint(model, y0, yp0, options.linear.linear_solver == "core" ? "dense" : options.linear.linear_solver,
                     options.max_order);
  SolveOutcome out = adjoint.forward(sink);
  if (out.status == Status::success) {
    const SolveOutcome back = adjoint.backward();
    if (back.status != Status::success) out = {back.status, "in the backward (adjoint) pass: " + back.message, req.t0};
  }
  adjoint.add_stats(problem.stats());
  return out;
}

}  // namespace daekit::plugins
