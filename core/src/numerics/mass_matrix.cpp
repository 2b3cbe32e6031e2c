#include "daekit/numerics/mass_matrix.hpp"

#include "daekit/problem_view.hpp"

namespace daekit {

MassMatrix::MassMatrix() = default;
MassMatrix::~MassMatrix() = default;
MassMatrix::MassMatrix(MassMatrix&&) noexcept = default;
MassMatrix& MassMatrix::operator=(MassMatrix&&) noexcept = default;

Eval MassMatrix::setup(ProblemView& problem, double t0, const Eigen::VectorXd& y0) {
  n_ = problem.size();
  dense_.resize(0, 0);
  sparse_.resize(0, 0);
  if (problem.mass_kind() == MassKind::identity) {
    shape_ = Shape::identity;
    find_split();
    return Eval::ok;
  }
  bool diagonal = false;
  switch (problem.mass_storage()) {
    case DK_MASS_STORAGE_DIAGONAL: {
      diag_.resize(n_);
      if (const Eval e = problem.mass_diagonal(t0, y0, diag_); e != Eval::ok) return e;
      diagonal = true;
      break;
    }
    case DK_MASS_STORAGE_SPARSE: {
      std::vector<Eigen::Index> positions;
      sparse_ = problem.mass_pattern(positions);
      std::vector<double> values(positions.size());
      if (const Eval e = problem.mass_sparse(t0, y0, values.data()); e != Eval::ok) return e;
      for (std::size_t k = 0; k < positions.size(); ++k) sparse_.valuePtr()[positions[k]] += values[k];
      sparse_.prune(0.0);  // entries the pattern allows but M does not use
      diagonal = true;
      for (Eigen::Index j = 0; j < n_ && diagonal; ++j)
        for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_, j); it; ++it)
          if (it.row() != j) diagonal = false;
      if (diagonal) {
        diag_ = sparse_.diagonal();
        sparse_.resize(0, 0);
      }
      break;
    }
    default: {
      if (const Eval e = problem.mass(t0, y0, dense_); e != Eval::ok) return e;
      Eigen::MatrixXd off = dense_;
      off.diagonal().setZero();
      diagonal = off.isZero(0.0);
      if (diagonal) {
        diag_ = dense_.diagonal();
        dense_.resize(0, 0);
      }
      break;
    }
  }
  if (diagonal)
    shape_ = diag_.isOnes(0.0) ? Shape::identity : Shape::diagonal;
  else
    shape_ = sparse_.size() > 0 ? Shape::sparse : Shape::dense;
  find_split();
  return Eval::ok;
}

void MassMatrix::find_split() {
  zero_rows_.clear();
  zero_columns_.clear();
  block_rows_.clear();
  block_columns_.clear();
  block_lu_.reset();
  splits_ = true;
  if (shape_ == Shape::identity) return;
  if (shape_ == Shape::diagonal) {
    for (Eigen::Index i = 0; i < n_; ++i)
      if (diag_[i] == 0.0) zero_rows_.push_back(i);
    zero_columns_ = zero_rows_;
    return;
  }
  if (shape_ == Shape::dense) {
    splits_ = false;
    return;
  }
  std::vector<char> row_used(static_cast<std::size_t>(n_), 0);
  for (Eigen::Index j = 0; j < n_; ++j) {
    Eigen::SparseMatrix<double>::InnerIterator it(sparse_, j);
    if (!it) zero_columns_.push_back(j);
    else block_columns_.push_back(j);
    for (; it; ++it) row_used[static_cast<std::size_t>(it.row())] = 1;
  }
  for (Eigen::Index i = 0; i < n_; ++i) (row_used[static_cast<std::size_t>(i)] ? block_rows_ : zero_rows_).push_back(i);
  splits_ = zero_rows_.size() == zero_columns_.size();
  if (!splits_) return;
  // The non-zero block, renumbered, must be non-singular for the split to be exact.
  std::vector<Eigen::Index> row_number(static_cast<std::size_t>(n_), -1);
  for (std::size_t k = 0; k < block_rows_.size(); ++k) row_number[static_cast<std::size_t>(block_rows_[k])] = static_cast<Eigen::Index>(k);
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t c = 0; c < block_columns_.size(); ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_, block_columns_[c]); it; ++it)
      entries.emplace_back(row_number[static_cast<std::size_t>(it.row())], static_cast<Eigen::Index>(c), it.value());
  const auto m = static_cast<Eigen::Index>(block_rows_.size());
  Eigen::SparseMatrix<double> block(m, m);
  block.setFromTriplets(entries.begin(), entries.end());
  block.makeCompressed();
  block_lu_ = std::make_unique<BlockLU>();
  block_lu_->compute(block);
  splits_ = block_lu_->info() == Eigen::Success;
  if (!splits_) block_lu_.reset();
}

bool MassMatrix::solve_split(const Eigen::VectorXd& f, Eigen::VectorXd& yp) const {
  if (!splits()) return false;
  yp.resize(n_);
  switch (shape_) {
    case Shape::identity: yp = f; return true;
    case Shape::diagonal:
      for (Eigen::Index i = 0; i < n_; ++i) yp[i] = diag_[i] != 0.0 ? f[i] / diag_[i] : 0.0;
      return true;
    default: break;
  }
  Eigen::VectorXd rhs(static_cast<Eigen::Index>(block_rows_.size()));
  for (std::size_t k = 0; k < block_rows_.size(); ++k) rhs[static_cast<Eigen::Index>(k)] = f[block_rows_[k]];
  const Eigen::VectorXd x = block_lu_->solve(rhs);
  yp.setZero();
  for (std::size_t k = 0; k < block_columns_.size(); ++k) yp[block_columns_[k]] = x[static_cast<Eigen::Index>(k)];
  return true;
}

void MassMatrix::apply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  switch (shape_) {
    case Shape::identity: out = x; break;
    case Shape::diagonal: out = diag_.cwiseProduct(x); break;
    case Shape::sparse: out.noalias() = sparse_ * x; break;
    case Shape::dense: out.noalias() = dense_ * x; break;
  }
}

template <class Scalar>
void MassMatrix::add_scaled_to(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& w, Scalar alpha) const {
  switch (shape_) {
    case Shape::identity: w.diagonal().array() += alpha; break;
    case Shape::diagonal: w.diagonal() += alpha * diag_.cast<Scalar>(); break;
    case Shape::sparse:
      for_each_nonzero([&](Eigen::Index i, Eigen::Index j, double value) { w(i, j) += alpha * value; });
      break;
    case Shape::dense: w += alpha * dense_.cast<Scalar>(); break;
  }
}

template void MassMatrix::add_scaled_to(Eigen::MatrixXd&, double) const;
template void MassMatrix::add_scaled_to(Eigen::MatrixXcd&, std::complex<double>) const;

double MassMatrix::entry(Eigen::Index i, Eigen::Index j) const {
  switch (shape_) {
    case Shape::identity: return i == j ? 1.0 : 0.0;
    case Shape::diagonal: return i == j ? diag_[i] : 0.0;
    case Shape::sparse: return sparse_.coeff(i, j);
    case Shape::dense: return dense_(i, j);
  }
  return 0.0;
}

bool MassMatrix::zero_column(Eigen::Index j) const {
  switch (shape_) {
    case Shape::identity: return false;
    case Shape::diagonal: return diag_[j] == 0.0;
    case Shape::sparse: return !Eigen::SparseMatrix<double>::InnerIterator(sparse_, j);
    case Shape::dense: return dense_.col(j).cwiseAbs().maxCoeff() == 0.0;
  }
  return false;
}

}  // namespace daekit
