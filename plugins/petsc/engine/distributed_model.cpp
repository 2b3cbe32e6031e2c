#include "distributed_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime.hpp"
#include "ts_setup.hpp"

namespace daekit::plugins::petsc {

DistributedModel::DistributedModel(ProblemView& problem, const SolveRequest& request)
    : problem_(problem), request_(request), d_(*problem.distribution()) {}

DistributedModel::~DistributedModel() {
  if (matrix_) MatDestroy(&matrix_);
  if (to_ghosts_) VecScatterDestroy(&to_ghosts_);
  if (ghost_rows_) ISDestroy(&ghost_rows_);
  if (ghost_values_) VecDestroy(&ghost_values_);
}

std::string DistributedModel::setup() {
  comm_ = MPI_Comm_f2c(static_cast<MPI_Fint>(d_.mpi_comm_f));
  MPI_Comm_rank(comm_, &rank_);
  owned_ = static_cast<Eigen::Index>(d_.n_local);
  ghosts_ = static_cast<Eigen::Index>(d_.nghost);
  first_ = d_.first_row;
  // The blocks in rank order cover 0 .. n-1: each starts where the ranks before it end.
  unsigned long long mine = d_.n_local, before = 0, total = 0;
  MPI_Exscan(&mine, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm_);
  if (rank_ == 0) before = 0;  // MPI_Exscan leaves rank 0's undefined
  MPI_Allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm_);
  int wrong = before != first_ ? 1 : 0, any_wrong = 0;
  MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, comm_);
  if (any_wrong || total != problem_.info().n)
    return "the ranks' blocks of rows do not cover 0 .. n-1 in rank order (the problem's distribution)";
  int no_pattern = d_.jac_nnz == 0 ? 1 : 0, any_without = 0;
  MPI_Allreduce(&no_pattern, &any_without, 1, MPI_INT, MPI_MAX, comm_);
  if (any_without) return "petsc forms a M - J on a distributed problem: it needs the local Jacobian pattern";
  local_.setZero(owned_ + ghosts_);
  f_.resize(owned_);
  f_perturbed_.resize(owned_);
  mass_.resize(owned_);
  values_.resize(static_cast<Eigen::Index>(d_.jac_nnz));
  row_.resize(values_.size());
  if (problem_.mass_diagonal_local(mass_.data()) != Eval::ok) return "the mass matrix: " + problem_.last_message();
  // Ghosts: a scatter from the global vector into a sequential vector on local_'s tail.
  std::vector<PetscInt> rows(d_.ghost_rows, d_.ghost_rows + d_.nghost);
  ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(rows.size()), rows.data(), PETSC_COPY_VALUES, &ghost_rows_);
  VecCreateSeqWithArray(PETSC_COMM_SELF, 1, static_cast<PetscInt>(ghosts_), local_.data() + owned_, &ghost_values_);
  Vec layout = vector_of(Eigen::VectorXd());
  const PetscErrorCode e = VecScatterCreate(layout, ghost_rows_, ghost_values_, nullptr, &to_ghosts_);
  VecDestroy(&layout);
  if (e != 0) return "the ghost scatter: " + error_text(e);
  localise_tolerances();
  // W's rows: the pattern's columns in global numbering, the diagonal added where absent.
  std::vector<PetscInt> starts{0}, columns;
  diagonal_at_.assign(static_cast<std::size_t>(owned_), -1);
  for (Eigen::Index i = 0; i < owned_; ++i) {
    for (auto k = d_.jac_row_ptr[i]; k < d_.jac_row_ptr[i + 1]; ++k) {
      const auto c = static_cast<Eigen::Index>(d_.jac_col_idx[k]);
      const auto global = static_cast<PetscInt>(c < owned_ ? first_ + static_cast<std::size_t>(c) : d_.ghost_rows[c - owned_]);
      global_columns_.push_back(global);
      if (c == i) diagonal_at_[static_cast<std::size_t>(i)] = k;
    }
    columns.insert(columns.end(), global_columns_.begin() + d_.jac_row_ptr[i], global_columns_.end());
    if (diagonal_at_[static_cast<std::size_t>(i)] < 0) columns.push_back(static_cast<PetscInt>(first_) + static_cast<PetscInt>(i));
    starts.push_back(static_cast<PetscInt>(columns.size()));
  }
  MatCreate(comm_, &matrix_);
  MatSetSizes(matrix_, static_cast<PetscInt>(owned_), static_cast<PetscInt>(owned_), static_cast<PetscInt>(problem_.info().n),
              static_cast<PetscInt>(problem_.info().n));
  MatSetType(matrix_, MATMPIAIJ);
  if (MatMPIAIJSetPreallocationCSR(matrix_, starts.data(), columns.data(), nullptr) != 0)
    return "PETSc could not hold the local Jacobian's pattern";
  // Differences, where the problem gives no local Jacobian: its columns coloured.
  if (!problem_.has_jacobian_local() || request_.jacobian == JacobianSource::finite_difference) {
    const Eigen::Index n_columns = owned_ + ghosts_;
    std::vector<std::int32_t> col_ptr(static_cast<std::size_t>(n_columns) + 1, 0), row_idx(d_.jac_nnz);
    for (std::size_t k = 0; k < d_.jac_nnz; ++k) ++col_ptr[static_cast<std::size_t>(d_.jac_col_idx[k]) + 1];
    for (Eigen::Index c = 0; c < n_columns; ++c) col_ptr[static_cast<std::size_t>(c) + 1] += col_ptr[static_cast<std::size_t>(c)];
    std::vector<std::int32_t> fill(col_ptr.begin(), col_ptr.end() - 1);
    for (Eigen::Index i = 0; i < owned_; ++i)
      for (auto k = d_.jac_row_ptr[i]; k < d_.jac_row_ptr[i + 1]; ++k)
        row_idx[static_cast<std::size_t>(fill[static_cast<std::size_t>(d_.jac_col_idx[k])]++)] = static_cast<std::int32_t>(i);
    colouring_ = colour_columns(static_cast<std::size_t>(n_columns), col_ptr.data(), row_idx.data());
    perturbed_.resize(n_columns);
  }
  return "";
}

Vec DistributedModel::vector_of(const Eigen::VectorXd& rows) const {
  Vec v = nullptr;
  VecCreateMPI(comm_, static_cast<PetscInt>(owned_), static_cast<PetscInt>(problem_.info().n), &v);
  if (rows.size() == 0) return v;
  PetscScalar* data = nullptr;
  VecGetArray(v, &data);
  Eigen::Map<Eigen::VectorXd>(data, owned_) = rows.segment(static_cast<Eigen::Index>(offset()), owned_);
  VecRestoreArray(v, &data);
  return v;
}

Vec DistributedModel::vector_of(const PerComponent& rows) const {
  Vec v = vector_of(Eigen::VectorXd());
  PetscScalar* data = nullptr;
  VecGetArray(v, &data);
  for (Eigen::Index i = 0; i < owned_; ++i) data[i] = rows[static_cast<Eigen::Index>(offset()) + i];
  VecRestoreArray(v, &data);
  return v;
}

void DistributedModel::localise_tolerances() {
  for (auto [from, into] : {std::pair{&request_.rtol, &rtol_local_}, {&request_.atol, &atol_local_}}) {
    Vec v = vector_of(*from);
    gather_local(v);
    *into = local_;
    VecDestroy(&v);
  }
}

void DistributedModel::gather_local(Vec y) {
  VecScatterBegin(to_ghosts_, y, ghost_values_, INSERT_VALUES, SCATTER_FORWARD);
  const PetscScalar* data = nullptr;
  VecGetArrayRead(y, &data);
  local_.head(owned_) = Eigen::Map<const Eigen::VectorXd>(data, owned_);
  VecRestoreArrayRead(y, &data);
  VecScatterEnd(to_ghosts_, y, ghost_values_, INSERT_VALUES, SCATTER_FORWARD);
}

// The worst outcome of an evaluation over the ranks: a rank alone leaving TS's collective
// calls would leave the others waiting in them for ever.
Eval DistributedModel::agree(Eval e) const {
  int mine = e == Eval::ok ? 0 : e == Eval::recoverable ? 1 : 2, worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm_);
  return worst == 0 ? Eval::ok : worst == 1 ? Eval::recoverable : Eval::fatal;
}

PetscErrorCode DistributedModel::residual(TS ts, PetscReal t, Vec y, Vec yp, Vec f, void* self) {
  auto& m = *static_cast<DistributedModel*>(self);
  m.gather_local(y);
  const Eval mine = m.problem_.rhs_local(t, m.local_.data(), m.f_.data());
  if (const Eval e = m.agree(mine); e != Eval::ok) return m.model_failed(ts, e, mine != Eval::ok, false);
  const PetscScalar* rate = nullptr;
  PetscScalar* out = nullptr;
  VecGetArrayRead(yp, &rate);
  VecGetArray(f, &out);
  Eigen::Map<Eigen::VectorXd>(out, m.owned_) = m.mass_.cwiseProduct(Eigen::Map<const Eigen::VectorXd>(rate, m.owned_)) - m.f_;
  VecRestoreArray(f, &out);
  VecRestoreArrayRead(yp, &rate);
  return 0;
}

double DistributedModel::weight(Eigen::Index c) const {
  return 1.0 / (rtol_local_[c] * std::abs(local_[c]) + atol_local_[c]);
}

// df/dy's owned rows at local_ into values_: the problem's, or differences one colour at a
// time (increments sqrt(eps) max(|y_j|, atol_j / rtol_j), the scale below which atol rules).
Eval DistributedModel::evaluate_jacobian(double t) {
  if (colouring_.colours == 0) return problem_.jacobian_local(t, local_.data(), values_.data());
  Eval e = problem_.rhs_local(t, local_.data(), f_.data(), true);
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  perturbed_ = local_;  // each colour's columns are put back after its evaluation
  for (int colour = 0; e == Eval::ok && colour < colouring_.colours; ++colour) {
    for (std::size_t c : colouring_.columns_of[static_cast<std::size_t>(colour)]) {
      const auto j = static_cast<Eigen::Index>(c);
      perturbed_[j] += root_eps * std::max(std::abs(local_[j]), atol_local_[j] / rtol_local_[j]);
    }
    e = problem_.rhs_local(t, perturbed_.data(), f_perturbed_.data(), true);
    for (Eigen::Index i = 0; e == Eval::ok && i < owned_; ++i)
      for (auto k = d_.jac_row_ptr[i]; k < d_.jac_row_ptr[i + 1]; ++k) {
        const auto j = static_cast<Eigen::Index>(d_.jac_col_idx[k]);
        if (colouring_.colour_of[static_cast<std::size_t>(j)] == colour)
          values_[k] = (f_perturbed_[i] - f_[i]) / (perturbed_[j] - local_[j]);
      }
    for (std::size_t c : colouring_.columns_of[static_cast<std::size_t>(colour)])
      perturbed_[static_cast<Eigen::Index>(c)] = local_[static_cast<Eigen::Index>(c)];
  }
  return e;
}

PetscErrorCode DistributedModel::iteration_matrix(TS ts, PetscReal t, Vec y, Vec, PetscReal a, Mat, Mat p, void* self) {
  auto& m = *static_cast<DistributedModel*>(self);
  m.gather_local(y);
  const Eval mine = m.evaluate_jacobian(t);
  if (const Eval e = m.agree(mine); e != Eval::ok) return m.model_failed(ts, e, mine != Eval::ok, true);
  ++m.jacobians_;
  m.row_ = -m.values_;
  for (Eigen::Index i = 0; i < m.owned_; ++i) {
    const auto first = m.d_.jac_row_ptr[i], count = m.d_.jac_row_ptr[i + 1] - first;
    const auto global_row = static_cast<PetscInt>(m.first_) + static_cast<PetscInt>(i);
    MatSetValues(p, 1, &global_row, count, m.global_columns_.data() + first, m.row_.data() + first, INSERT_VALUES);
    // a M on the diagonal, into the entry J has there or one of its own.
    const PetscScalar diagonal = a * m.mass_[i] - (m.diagonal_at_[static_cast<std::size_t>(i)] >= 0 ? m.values_[m.diagonal_at_[static_cast<std::size_t>(i)]] : 0.0);
    MatSetValue(p, global_row, global_row, diagonal, INSERT_VALUES);
  }
  MatAssemblyBegin(p, MAT_FINAL_ASSEMBLY);
  return MatAssemblyEnd(p, MAT_FINAL_ASSEMBLY);
}

std::string DistributedModel::check_algebraic_rows(Vec y0) {
  gather_local(y0);
  const int failed = problem_.rhs_local(request_.t0, local_.data(), f_.data()) != Eval::ok ? 1 : 0;
  double worst = 0.0;  // f_i over the tolerance of y_i, algebraic rows only
  for (Eigen::Index i = 0; !failed && i < owned_; ++i)
    if (mass_[i] == 0.0) worst = std::max(worst, std::abs(f_[i]) * weight(i));
  int any_failed = 0;
  double worst_all = 0.0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm_);
  MPI_Allreduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, comm_);
  if (any_failed) return "f at t0 could not be evaluated" + (failed ? ": " + problem_.last_message() : std::string());
  if (worst_all > 1.0)
    return "the initial values are not consistent: an algebraic equation is off by " + std::to_string(worst_all) +
           " times its tolerance (a distributed problem's algebraic components are not computed here: give "
           "consistent ones)";
  return "";
}

double DistributedModel::first_step(double t, Vec y) {
  gather_local(y);
  const bool failed = problem_.rhs_local(t, local_.data(), f_.data()) != Eval::ok;
  double sums[3] = {0.0, 0.0, failed ? 1.0 : 0.0}, all[3] = {0.0, 0.0, 0.0};
  for (Eigen::Index i = 0; !failed && i < owned_; ++i) {
    if (mass_[i] == 0.0) continue;
    const double w = weight(i);
    sums[0] += local_[i] * local_[i] * w * w;
    sums[1] += f_[i] * f_[i] * w * w / (mass_[i] * mass_[i]);
  }
  MPI_Allreduce(sums, all, 3, MPI_DOUBLE, MPI_SUM, comm_);
  if (all[2] > 0.0) return 0.0;  // f failed on some rank: the same answer on all
  const double size = static_cast<double>(problem_.info().n), d0 = std::sqrt(all[0] / size), d1 = std::sqrt(all[1] / size);
  // Hairer and Wanner's first guess (II.4): a step that moves y by 1 % of its size.
  double h = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
  const double span = std::abs(request_.tend - t);
  if (request_.hmax > 0.0) h = std::min(h, request_.hmax);
  return std::min(h, span);
}

// As TsModel, on every rank alike: a recoverable failure fails this Newton solve as out of
// the domain (TS retries smaller); a fatal one stops the step.
PetscErrorCode DistributedModel::model_failed(TS ts, Eval e, bool here, bool in_jacobian) {
  if (e == Eval::recoverable) {
    mark_out_of_domain(ts, in_jacobian);
    return 0;
  }
  failure_ = here ? problem_.last_message() : "the model failed on another rank";
  return PETSC_ERR_USER;
}

}  // namespace daekit::plugins::petsc
