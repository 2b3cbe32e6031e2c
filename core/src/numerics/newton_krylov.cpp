#include "daekit/numerics/newton_krylov.hpp"

#include <cmath>

#include "daekit/sdk/option_table.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {
namespace {

// Where `auto` switches to Krylov for a problem with its own preconditioner
// (docs/benchmarks/scaling.md, "Crossover"; bdf, rtol 1e-6): the sparse LU's time over
// Krylov's was 1.10 on the brusselator at n = 512 and 1.58 at 2048; 0.75 on heat2d at 256
// and 1.25 at 1024; 0.82 on reaction3d at 432 and 2.4 at 1024.
constexpr Eigen::Index krylov_crossover_size = 1000;
// A dense n x n matrix of 20000 is 3.2 GB and its LU 5 10^12 flops: beyond it, without a
// pattern, Krylov is the only way through.
constexpr Eigen::Index dense_limit_size = 20000;

// SUNDIALS' names of the Krylov methods, accepted as linear_solver values (what CVODE's and
// IDA's users write): each is linear_solver=krylov with that method.
const std::vector<std::pair<std::string, KrylovMethod>>& sundials_krylov_names() {
  static const std::vector<std::pair<std::string, KrylovMethod>> names = {
      {"spgmr", KrylovMethod::gmres}, {"spfgmr", KrylovMethod::fgmres}, {"spbcgs", KrylovMethod::bicgstab}};
  return names;
}

OptionTable<KrylovOptions> krylov_table(const std::vector<std::string>& direct_choices, const std::string& direct_help) {
  std::vector<std::pair<std::string, std::string>> solvers;
  for (const auto& c : direct_choices) solvers.emplace_back(c, c);
  solvers.emplace_back("krylov", "krylov");
  for (const auto& [name, method] : sundials_krylov_names()) solvers.emplace_back(name, name);
  OptionTable<KrylovOptions> table;
  table.choice("linear_solver", &KrylovOptions::linear_solver, solvers,
               "the Newton systems' solver: direct LUs (" + direct_choices.front() + " the default" +
                   (direct_help.empty() ? "" : "; " + direct_help) +
                   "), or krylov: a preconditioned Krylov method, matrix-free (docs/krylov.md); spgmr, spfgmr, "
                   "spbcgs: krylov with that method (SUNDIALS' names). auto is krylov for a problem with its own "
                   "preconditioner and J v from n = " + std::to_string(krylov_crossover_size) +
                   ", or without a Jacobian pattern from n = " + std::to_string(dense_limit_size))
      .choice("krylov", &KrylovOptions::method,
              {{"gmres", KrylovMethod::gmres}, {"fgmres", KrylovMethod::fgmres}, {"bicgstab", KrylovMethod::bicgstab}},
              "with linear_solver=krylov: restarted GMRES, flexible GMRES or BiCGStab (SUNDIALS' SPGMR, SPFGMR, "
              "SPBCGS)")
      .choice("preconditioner", &KrylovOptions::preconditioner,
              {{"auto", PreconditionerKind::automatic}, {"none", PreconditionerKind::none},
               {"jacobi", PreconditionerKind::jacobi}, {"ilu", PreconditionerKind::ilu},
               {"amg", PreconditionerKind::amg}, {"problem", PreconditionerKind::problem}},
              "with linear_solver=krylov: none, Jacobi, ILUT on the Jacobian's pattern, algebraic multigrid "
              "(hypre's BoomerAMG, one V-cycle) on it, or the problem's own (auto: the problem's if it has one, "
              "else ILUT where a pattern is declared, else none)")
      .real("ilu_droptol", &KrylovOptions::ilu_droptol, between(0, 1),
            "ILUT: entries below this (relative to their row) are dropped")
      .integer("ilu_fill", &KrylovOptions::ilu_fill, between(1, 1000), "ILUT: at most this many times a row's "
                                                                        "entries kept per row of L and of U")
      .real("amg_threshold", &KrylovOptions::amg_threshold, between(0, 1),
            "AMG: BoomerAMG's strength threshold (0.25 suits 2D, 0.5 to 0.6 3D problems)");
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

std::vector<OptionDesc> krylov_option_rows(const std::vector<std::string>& direct_choices,
                                          const std::string& direct_help) {
  KrylovOptions defaults;
  defaults.linear_solver = direct_choices.front();
  std::vector<OptionDesc> rows = krylov_table(direct_choices, direct_help).describe(defaults);
  for (auto& row : numbers_table().describe()) rows.push_back(std::move(row));
  return rows;
}

bool krylov_by_default(const ProblemView& problem, const SolveRequest& request) {
  if (request.wants_adjoint()) return false;
  const auto n = problem.size();
  const bool exact_products =
      problem.residual_only() ? problem.has_residual_jacobian_vector() : problem.has_jacobian_vector();
  if (problem.has_preconditioner() && exact_products && n >= krylov_crossover_size) return true;
  const bool pattern = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  return !pattern && n >= dense_limit_size;
}

bool read_krylov_options(const ProblemView& problem, const SolveRequest& request,
                         const std::vector<std::string>& direct_choices, KrylovOptions& options, std::string* why) {
  options.linear_solver = direct_choices.front();
  if (!krylov_table(direct_choices, "").read(request, options, why)) return false;
  for (const auto& [name, method] : sundials_krylov_names()) {
    if (options.linear_solver != name) continue;
    if (request.extra.count("krylov") && options.method != method) {
      *why = "linear_solver=" + name + " and krylov=" + request.extra.at("krylov") + " name different methods";
      return false;
    }
    options.linear_solver = "krylov";
    options.method = method;
  }
  if (options.linear_solver == "auto" && krylov_by_default(problem, request)) options.linear_solver = "krylov";
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
  if (!preconditioner_.setup(problem, request, mass, kind, options.numbers(), why)) return false;
  krylov_.setup(n, options.settings,
                preconditioner_.approximates_inverse() ? KrylovSolver::GramSchmidt::classical
                                                       : KrylovSolver::GramSchmidt::modified);
  problem.stats().linear_algebra = DK_LINEAR_ALGEBRA_KRYLOV;
  product_.setup(problem, request, mass != nullptr);
  if (product_.by_differences() && !Preconditioner::forms_jacobian(kind))
    problem.stats().jacobian_used = DK_JACOBIAN_FINITE_DIFFERENCE;
  algebraic_rows_.clear();
  if (mass) {
    algebraic_rows_ = mass->zero_rows();
  } else if (problem.info().differential) {
    for (Eigen::Index i = 0; i < n; ++i)
      if (problem.is_algebraic(i)) algebraic_rows_.push_back(i);
  }
  // Only the vectors this problem's operator needs: M v where M is not the identity, the
  // row scaling where there are algebraic rows (at 2 10^6 unknowns each is 16 MB).
  const bool general_mass = mass && !mass->is_identity();
  const bool scaled_rows = !algebraic_rows_.empty();
  for (Eigen::VectorXd* v : {&v_, &mv_}) v->resize(general_mass ? n : 0);
  for (Eigen::VectorXd* v : {&b_rows_, &r_rows_}) v->resize(scaled_rows ? n : 0);
  row_scale_.setOnes(scaled_rows ? n : 0);
  return true;
}

void NewtonKrylov::linearise_at(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double gamma,
                                double cj) {
  product_.at(t, y, yp, cj);
  gamma_ = gamma;
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
  const auto apply_a = [this](ConstRef v, Ref out) { return apply(v, out); };
  const auto precondition_a = [this](ConstRef r, Ref z) { return precondition(r, z); };
  KrylovSolver::Outcome outcome;
  if (scaled_rows()) {
    // D A x = D gamma b with D the row scaling; preconditioned by D P, whose inverse is P^-1 D^-1.
    delta_ = tol;
    b_rows_ = gamma_ * row_scale_.cwiseProduct(b);
    outcome = krylov_.solve(apply_a, precondition_a, weights, b_rows_, x, tol);
  } else {
    // A (x / gamma) = b to tol / gamma, every residual 1/gamma of A x = gamma b's: the same
    // test without an n-vector for gamma b (1 of about 40 doubles per unknown at 2 10^6).
    delta_ = tol / gamma_;
    outcome = krylov_.solve(apply_a, precondition_a, weights, b, x, delta_);
    x *= gamma_;
  }
  ++stats.nsolve;
  return counted(krylov_, outcome);
}

KrylovSolver::Outcome NewtonKrylov::counted(KrylovSolver& solver, KrylovSolver::Outcome outcome) {
  Stats& stats = problem_->stats();
  stats.nlin_iters += solver.iterations();
  model_failure_ = solver.model_failure();
  if (outcome == KrylovSolver::Outcome::reduced || outcome == KrylovSolver::Outcome::failed) ++stats.nlin_conv_fails;
  return outcome;
}

KrylovSolver::Outcome NewtonKrylov::solve_complex(double a, double b, const Eigen::VectorXd& weights,
                                                  const Eigen::VectorXd& b_re, const Eigen::VectorXd& b_im,
                                                  Eigen::VectorXd& x_re, Eigen::VectorXd& x_im, double tol) {
  if (!mass_) return KrylovSolver::Outcome::failed;  // the Radau methods take M y' = f only
  const Eigen::Index n = b_re.size();
  if (weights_2n_.size() != 2 * n) {
    krylov_2n_.setup(2 * n, krylov_.settings(), krylov_.gram_schmidt());
    for (Eigen::VectorXd* v : {&weights_2n_, &b_2n_, &x_2n_}) v->resize(2 * n);
    mv_im_.resize(mass_->is_identity() ? 0 : n);
  }
  const double real_gamma = gamma_;  // the real systems' scaling, back after this solve
  gamma_ = 1.0 / a;
  shift_ratio_ = b / a;
  for (const Eigen::Index i : algebraic_rows_) row_scale_[i] = a;
  tol *= std::sqrt(static_cast<double>(2 * n));
  delta_ = tol;
  weights_2n_ << weights, weights;
  if (scaled_rows())
    b_2n_ << gamma_ * row_scale_.cwiseProduct(b_re), gamma_ * row_scale_.cwiseProduct(b_im);
  else
    b_2n_ << gamma_ * b_re, gamma_ * b_im;
  const auto outcome = krylov_2n_.solve([this](ConstRef v, Ref out) { return apply_complex(v, out); },
                                        [this, n](ConstRef r, Ref z) {
                                          for (const Eigen::Index half : {Eigen::Index{0}, n})
                                            if (const Eval e = precondition(r.segment(half, n), z.segment(half, n));
                                                e != Eval::ok)
                                              return e;
                                          return Eval::ok;
                                        },
                                        weights_2n_, b_2n_, x_2n_, tol);
  x_re = x_2n_.head(n);
  x_im = x_2n_.tail(n);
  gamma_ = real_gamma;
  for (const Eigen::Index i : algebraic_rows_) row_scale_[i] = 1.0 / gamma_;
  ++problem_->stats().nsolve;
  return counted(krylov_2n_, outcome);
}

// out = D [v_re - g J v_re - (b/a) M v_im; (b/a) M v_re + M v_im - g J v_im], g = 1/a (M
// applied where it is not the identity).
Eval NewtonKrylov::apply_complex(ConstRef v, Ref out) {
  const Eigen::Index n = v.size() / 2;
  // J v_re and J v_im go into out's halves and are combined there, entry by entry.
  if (Eval e = product_.apply(v.head(n), out.head(n)); e != Eval::ok) return e;
  if (Eval e = product_.apply(v.tail(n), out.tail(n)); e != Eval::ok) return e;
  if (mass_->is_identity()) {
    out.head(n) = v.head(n) - gamma_ * out.head(n) - shift_ratio_ * v.tail(n);
    out.tail(n) = shift_ratio_ * v.head(n) + v.tail(n) - gamma_ * out.tail(n);
  } else {
    v_ = v.head(n);
    mass_->apply(v_, mv_);
    v_ = v.tail(n);
    mass_->apply(v_, mv_im_);
    out.head(n) = mv_ - gamma_ * out.head(n) - shift_ratio_ * mv_im_;
    out.tail(n) = shift_ratio_ * mv_ + mv_im_ - gamma_ * out.tail(n);
  }
  if (scaled_rows()) {
    out.head(n).array() *= row_scale_.array();
    out.tail(n).array() *= row_scale_.array();
  }
  return Eval::ok;
}

Eval NewtonKrylov::apply(ConstRef v, Ref out) {
  // J v goes into out and is combined there, entry by entry (no n-vector of its own).
  const Eval e = product_.apply(v, out);
  if (e != Eval::ok) return e;
  if (!mass_) {  // residual form: gamma (dF/dy + cj dF/dy') v
    if (scaled_rows())
      out = gamma_ * row_scale_.cwiseProduct(out);
    else
      out = gamma_ * out;
    return Eval::ok;
  }
  if (mass_->is_identity()) {
    out = v - gamma_ * out;
  } else {
    v_ = v;
    mass_->apply(v_, mv_);
    out = mv_ - gamma_ * out;
  }
  if (scaled_rows()) out.array() *= row_scale_.array();
  return Eval::ok;
}

// The preconditioner of D A: P^-1 D^-1 r.
Eval NewtonKrylov::precondition(ConstRef r, Ref z) {
  if (!scaled_rows()) return preconditioner_.apply(r, z, delta_);
  r_rows_ = r.cwiseQuotient(row_scale_);
  return preconditioner_.apply(r_rows_, z, delta_);
}

}  // namespace daekit
