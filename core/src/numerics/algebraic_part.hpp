// The algebraic part of M y' = f with a constant singular M, for the services that solve
// it (consistent initial values, re-solved output points: numerics/consistency.hpp).
// Private to the core.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "daekit/numerics/mass_matrix.hpp"

namespace daekit {

// The algebraic equations N^T f = 0 (N^T M = 0) and the components they determine (the
// null space Z of M: M Z = 0). When M splits (zero rows and columns, the rest
// non-singular: identity, diagonal, most sparse M) both are selections of unit vectors,
// kept as index lists so that nothing grows as n x k; a dense M gets SVD bases.
struct AlgebraicPart {
  bool selection = true;
  std::vector<Eigen::Index> rows, columns;  // with selection
  Eigen::MatrixXd left, right;              // otherwise: bases of N and Z

  AlgebraicPart(const MassMatrix& mass, Eigen::Index n) {
    if (mass.splits()) {
      rows = mass.zero_rows();
      columns = mass.zero_columns();
      return;
    }
    selection = false;
    const Eigen::MatrixXd m = mass.shape() == MassMatrix::Shape::sparse ? Eigen::MatrixXd(mass.sparse()) : mass.dense();
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const double tol = svd.singularValues().maxCoeff() * static_cast<double>(n) * 1e-14;
    const Eigen::Index rank = (svd.singularValues().array() > tol).count();
    left = svd.matrixU().rightCols(n - rank);
    right = svd.matrixV().rightCols(n - rank);
  }
  Eigen::Index count() const { return selection ? static_cast<Eigen::Index>(rows.size()) : left.cols(); }
  // g = N^T f
  void equations(const Eigen::VectorXd& f, Eigen::VectorXd& g) const {
    if (!selection) {
      g = left.transpose() * f;
      return;
    }
    g.resize(count());
    for (std::size_t k = 0; k < rows.size(); ++k) g[static_cast<Eigen::Index>(k)] = f[rows[k]];
  }
  // Whether component i is among those the algebraic equations determine.
  std::vector<char> determined(Eigen::Index n) const {
    std::vector<char> out(static_cast<std::size_t>(n), 0);
    if (selection) {
      for (auto j : columns) out[static_cast<std::size_t>(j)] = 1;
    } else {
      for (Eigen::Index i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = right.row(i).cwiseAbs().maxCoeff() > 0.0;
    }
    return out;
  }
  // The row of M (the equation) that algebraic equation k mostly is.
  Eigen::Index equation_row(Eigen::Index k) const {
    if (selection) return rows[static_cast<std::size_t>(k)];
    Eigen::Index row;
    left.col(k).cwiseAbs().maxCoeff(&row);
    return row;
  }
  // The bases as dense n x k matrices, for the Newton iteration of a dense Jacobian.
  void as_bases(Eigen::Index n, Eigen::MatrixXd& l, Eigen::MatrixXd& r) const {
    if (!selection) {
      l = left;
      r = right;
      return;
    }
    l.setZero(n, count());
    r.setZero(n, count());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      l(rows[k], static_cast<Eigen::Index>(k)) = 1.0;
      r(columns[k], static_cast<Eigen::Index>(k)) = 1.0;
    }
  }
};

// The rows `rows` of a sparse J and its columns `columns` (all when null), renumbered,
// each column scaled by `column_scale` when given.
inline Eigen::SparseMatrix<double> sparse_block(const Eigen::SparseMatrix<double>& j, const std::vector<Eigen::Index>& rows,
                                         const std::vector<Eigen::Index>* columns, const Eigen::VectorXd* column_scale) {
  std::vector<Eigen::Index> row_number(static_cast<std::size_t>(j.rows()), -1);
  for (std::size_t k = 0; k < rows.size(); ++k) row_number[static_cast<std::size_t>(rows[k])] = static_cast<Eigen::Index>(k);
  std::vector<Eigen::Triplet<double>> entries;
  const Eigen::Index ncols = columns ? static_cast<Eigen::Index>(columns->size()) : j.cols();
  for (Eigen::Index c = 0; c < ncols; ++c) {
    const Eigen::Index col = columns ? (*columns)[static_cast<std::size_t>(c)] : c;
    for (Eigen::SparseMatrix<double>::InnerIterator it(j, col); it; ++it)
      if (const Eigen::Index r = row_number[static_cast<std::size_t>(it.row())]; r >= 0)
        entries.emplace_back(r, c, column_scale ? it.value() * (*column_scale)[col] : it.value());
  }
  Eigen::SparseMatrix<double> out(static_cast<Eigen::Index>(rows.size()), ncols);
  out.setFromTriplets(entries.begin(), entries.end());
  out.makeCompressed();
  return out;
}

}  // namespace daekit
