#include "daekit/numerics/preconditioner.hpp"

#include "algebraic_multigrid.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

Preconditioner::Preconditioner() = default;
Preconditioner::~Preconditioner() = default;

namespace {

const char* name_of(PreconditionerKind kind) {
  switch (kind) {
    case PreconditionerKind::jacobi: return "jacobi";
    case PreconditionerKind::ilu: return "ilu";
    case PreconditionerKind::amg: return "amg";
    default: return "problem";
  }
}

}  // namespace

bool Preconditioner::forms_jacobian(PreconditionerKind kind) {
  return kind == PreconditionerKind::jacobi || kind == PreconditionerKind::ilu || kind == PreconditionerKind::amg;
}

PreconditionerKind Preconditioner::resolve(PreconditionerKind kind, const ProblemView& problem, std::string* why) {
  const bool pattern = problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN;
  const bool mass_form = !problem.residual_only() && (problem.mass_kind() == MassKind::identity ||
                                                      problem.mass_kind() == MassKind::constant);
  if (kind == PreconditionerKind::automatic) {
    if (problem.has_preconditioner()) return PreconditionerKind::problem;
    return pattern && mass_form ? PreconditionerKind::ilu : PreconditionerKind::none;
  }
  if (kind == PreconditionerKind::problem && !problem.has_preconditioner()) {
    *why = "preconditioner=problem: the problem gives no preconditioner (prec_setup, prec_solve)";
    return PreconditionerKind::automatic;
  }
  if (forms_jacobian(kind) && (!mass_form || !pattern)) {
    *why = std::string("preconditioner=") + name_of(kind) +
           (mass_form ? " needs the Jacobian's sparsity pattern, which this problem does not declare"
                      : " needs a problem M y' = f with a constant M (this one is residual-form or has a varying M)") +
           ": use none or the problem's own";
    return PreconditionerKind::automatic;
  }
  return kind;
}

bool Preconditioner::setup(ProblemView& problem, const SolveRequest& request, const MassMatrix* mass,
                           PreconditionerKind kind, const PreconditionerNumbers& numbers, std::string* why) {
  problem_ = &problem;
  kind_ = kind;
  if (!forms_jacobian(kind)) return true;
  if (kind == PreconditionerKind::amg) {
    amg_ = std::make_unique<AlgebraicMultigrid>();
    if (!amg_->open(numbers.amg_threshold, why)) return false;
  }
  matrix_.setup(problem, request, *mass);
  inverse_diagonal_.resize(problem.size());
  ilu_.setDroptol(numbers.ilu_droptol);
  ilu_.setFillfactor(numbers.ilu_fill);
  return true;
}

Eval Preconditioner::prepare(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0, double gamma,
                             bool fresh) {
  t_ = t;
  y_ = &y;
  gamma_ = gamma;
  evaluated_ = fresh;
  if (kind_ == PreconditionerKind::none) return Eval::ok;
  if (kind_ == PreconditionerKind::problem) {
    const Eval e = problem_->preconditioner_setup(t, y, gamma, evaluated_);
    if (evaluated_) ++problem_->stats().njac;
    else ++problem_->stats().njac_reused;
    return e;
  }
  ++problem_->stats().nprec_setups;
  if (fresh) {
    const Eval e = matrix_.evaluate_jacobian(t, y, f0);
    if (e != Eval::ok) return e;
  } else {
    ++problem_->stats().njac_reused;
  }
  // W = M / gamma - J, so M - gamma J = gamma W.
  matrix_.assemble(1.0 / gamma);
  if (kind_ == PreconditionerKind::jacobi) {
    const Eigen::VectorXd d = matrix_.sparse_w().diagonal();
    for (Eigen::Index i = 0; i < d.size(); ++i) inverse_diagonal_[i] = d[i] != 0.0 ? 1.0 / (gamma * d[i]) : 1.0;
    return Eval::ok;
  }
  if (kind_ == PreconditionerKind::amg) return amg_->setup(matrix_.sparse_w()) ? Eval::ok : Eval::recoverable;
  if (!ilu_analysed_) ilu_.analyzePattern(matrix_.sparse_w()), ilu_analysed_ = true;
  ilu_.factorize(matrix_.sparse_w());
  return ilu_.info() == Eigen::Success ? Eval::ok : Eval::recoverable;
}

Eval Preconditioner::apply(Eigen::Ref<const Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> z, double delta) {
  switch (kind_) {
    case PreconditionerKind::automatic:
    case PreconditionerKind::none: z = r; return Eval::ok;
    case PreconditionerKind::problem: return problem_->preconditioner_solve(t_, *y_, r, z, gamma_, delta);
    case PreconditionerKind::jacobi:
      ++problem_->stats().nprec_solves;
      z = inverse_diagonal_.cwiseProduct(r);
      return Eval::ok;
    case PreconditionerKind::ilu:
      ++problem_->stats().nprec_solves;
      z = ilu_.solve(r) / gamma_;
      return Eval::ok;
    case PreconditionerKind::amg:
      ++problem_->stats().nprec_solves;
      if (!amg_->apply(r.data(), z.data())) return Eval::recoverable;
      z /= gamma_;
      return Eval::ok;
  }
  return Eval::ok;
}

}  // namespace daekit
