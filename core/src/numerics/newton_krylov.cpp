#include "daekit/numerics/newton_krylov.hpp"

#include <cmath>
#include <limits>

#include "daekit/numerics/finite_difference.hpp"
#include "daekit/sdk/option_table.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {
namespace {

OptionTable<KrylovOptions> krylov_table(const std::vector<std::string>& direct_choices) {
  std::vector<std::pair<std::string, std::string>> solvers;
  for (const auto& c : direct_choices) solvers.emplace_back(c, c);
  solvers.emplace_back("krylov", "krylov");
  OptionTable<KrylovOptions> table;
  table.choice("linear_solver", &KrylovOptions::linear_solver, solvers,
               "the Newton systems' solver: direct LUs (" + direct_choices.front() +
                   " the default), or krylov: a preconditioned Krylov method, matrix-free (docs/krylov.md)")
      .choice("krylov", &KrylovOptions::method,
              {{"gmres", KrylovMethod::gmres}, {"fgmres", KrylovMethod::fgmres}, {"bicgstab", KrylovMethod::bicgstab}},
              "with linear_solver=krylov: restarted GMRES, flexible GMRES or BiCGStab (SUNDIALS' SPGMR, SPFGMR, "
              "SPBCGS)")
      .choice("preconditioner", &KrylovOptions::preconditioner,
              {{"auto", PreconditionerKind::automatic}, {"none", PreconditionerKind::none},
               {"jacobi", PreconditionerKind::jacobi}, {"ilu", PreconditionerKind::ilu},
               {"problem", PreconditionerKind::problem}},
              "with linear_solver=krylov: none, Jacobi, ILUT on the Jacobian's pattern, or the problem's own "
              "(auto: the problem's if it has one, else ILUT where a pattern is declared, else none)")
      .real("ilu_droptol", &KrylovOptions::ilu_droptol, between(0, 1),
            "ILUT: entries below this (relative to their row) are dropped")
      .integer("ilu_fill", &KrylovOptions::ilu_fill, between(1, 1000), "ILUT: at most this many times a row's "
                                                                        "entries kept per row of L and of U");
  return table;
}

// The Krylov method's numeric settings: read after the table, which owns the method's name.
struct KrylovNumbers {
  int max_dimension = KrylovSettings{}.max_dimension;
  int max_restarts = KrylovSettings{}.max_restarts;
  double newton_fraction = KrylovSettings{}.newton_fraction;
};

const OptionTable<KrylovNumbers>& numbers_table() {
  static const auto table =
      OptionTable<KrylovNumbers>()
          .integer("krylov_dim", &KrylovNumbers::max_dimension, between(1, 500),
                   "with linear_solver=krylov: Krylov vectors before a restart (SUNDIALS' maxl)")
          .integer("krylov_restarts", &KrylovNumbers::max_restarts, between(0, 100), "GMRES and FGMRES restarts")
          .real("eplifac", &KrylovNumbers::newton_fraction, between(1e-6, 1),
                "the linear tolerance as a fraction of the Newton tolerance (IDA's and CVODE's eplifac)");
  return table;
}

}  // namespace

std::vector<OptionDesc> krylov_option_rows(const std::vector<std::string>& direct_choices) {
  KrylovOptions defaults;
  defaults.linear_solver = direct_choices.front();
  std::vector<OptionDesc> rows = krylov_table(direct_choices).describe(defaults);
  for (auto& row : numbers_table().describe()) rows.push_back(std::move(row));
  return rows;
}

bool read_krylov_options(const SolveRequest& request, const std::vector<std::string>& direct_choices,
                         KrylovOptions& options, std::string* why) {
  options.linear_solver = direct_choices.front();
  if (!krylov_table(direct_choices).read(request, options, why)) return false;
  KrylovNumbers numbers;
  if (!numbers_table().read(request, numbers, why)) return false;
  options.settings.method = options.method;
  options.settings.max_dimension = numbers.max_dimension;
  options.settings.max_restarts = numbers.max_restarts;
  options.settings.newton_fraction = numbers.newton_fraction;
  return true;
}

bool NewtonKrylov::setup(ProblemView& problem, const SolveRequest& request, const KrylovOptions& options,
                         const MassMatrix* mass, std::string* why) {
  problem_ = &problem;
  mass_ = mass;
  const PreconditionerKind kind = Preconditioner::resolve(options.preconditioner, problem, why);
  if (kind == PreconditionerKind::automatic) return false;
  const Eigen::Index n = problem.size();
  preconditioner_.setup(problem, request, mass, kind, options.ilu_droptol, options.ilu_fill);
  krylov_.setup(n, options.settings);
  problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_KRYLOV;
  if (!problem.has_jacobian_vector() && !problem.has_residual_jacobian_vector() &&
      kind != PreconditionerKind::jacobi && kind != PreconditionerKind::ilu)
    problem.stats().jacobian_used = DK_JACOBIAN_FINITE_DIFFERENCE;
  rtol_ = request.rtol;
  atol_ = request.atol;
  for (Eigen::VectorXd* v : {&v_, &mv_, &jv_, &y_work_, &yp_work_, &f_work_, &b_rows_, &r_rows_}) v->resize(n);
  row_scale_.setOnes(n);
  algebraic_rows_.clear();
  if (mass) {
    algebraic_rows_ = mass->zero_rows();
  } else if (problem.info().differential) {
    for (Eigen::Index i = 0; i < n; ++i)
      if (problem.is_algebraic(i)) algebraic_rows_.push_back(i);
  }
  return true;
}

void NewtonKrylov::linearise_at(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                const Eigen::VectorXd& value, double gamma, double cj) {
  t_ = t;
  y_ = &y;
  yp_ = &yp;
  value_ = &value;
  gamma_ = gamma;
  cj_ = cj;
  for (const Eigen::Index i : algebraic_rows_) row_scale_[i] = 1.0 / gamma;
}

Eval NewtonKrylov::prepare_preconditioner(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0,
                                          double gamma, bool fresh) {
  return preconditioner_.prepare(t, y, f0, gamma, fresh);
}

KrylovSolver::Outcome NewtonKrylov::solve(const Eigen::VectorXd& weights, const Eigen::VectorXd& b,
                                          Eigen::VectorXd& x, double tol) {
  Stats& stats = problem_->stats();
  // The tolerance is a weighted RMS; SUNDIALS tests the weighted 2-norm.
  tol *= std::sqrt(static_cast<double>(b.size()));
  delta_ = tol;
  // D A x = D gamma b with D the row scaling; preconditioned by D P, whose inverse is P^-1 D^-1.
  b_rows_ = gamma_ * row_scale_.cwiseProduct(b);
  const auto outcome = krylov_.solve([this](ConstRef v, Ref out) { return apply(v, out); },
                                     [this](ConstRef r, Ref z) {
                                       r_rows_ = r.cwiseQuotient(row_scale_);
                                       return preconditioner_.apply(r_rows_, z, delta_);
                                     },
                                     weights, b_rows_, x, tol);
  ++stats.nsolve;
  stats.nlin_iters += krylov_.iterations();
  if (outcome == KrylovSolver::Outcome::reduced || outcome == KrylovSolver::Outcome::failed) ++stats.nlin_conv_fails;
  return outcome;
}

Eval NewtonKrylov::apply(ConstRef v, Ref out) {
  const Eval e = jacobian_times(v, jv_);
  if (e != Eval::ok) return e;
  if (!mass_) {  // residual form: gamma (dF/dy + cj dF/dy') v
    out = gamma_ * row_scale_.cwiseProduct(jv_);
    return Eval::ok;
  }
  v_ = v;
  mass_->apply(v_, mv_);
  out = row_scale_.cwiseProduct(mv_ - gamma_ * jv_);
  return Eval::ok;
}

Eval NewtonKrylov::jacobian_times(ConstRef v, Ref out) {
  if (mass_ && problem_->has_jacobian_vector()) return problem_->jacobian_vector(t_, *y_, v, out);
  if (!mass_ && problem_->has_residual_jacobian_vector())
    return problem_->residual_jacobian_vector(t_, *y_, *yp_, cj_, v, out);
  // One forward difference along v.
  ++problem_->stats().njtv;
  const double sigma = directional_increment(*y_, v, rtol_, atol_, std::sqrt(std::numeric_limits<double>::epsilon()));
  if (sigma == 0.0) {
    out.setZero();
    return Eval::ok;
  }
  y_work_ = *y_ + sigma * v;
  Eval e;
  if (mass_) {
    e = problem_->rhs(t_, y_work_, f_work_, true);
  } else {
    yp_work_ = *yp_ + (cj_ * sigma) * v;
    e = problem_->residual(t_, y_work_, yp_work_, f_work_, true);
  }
  if (e != Eval::ok) return e;
  out = (f_work_ - *value_) / sigma;
  return Eval::ok;
}

}  // namespace daekit
