// Column colouring of a sparsity pattern for compressed Jacobians (Curtis, Powell and
// Reid): columns that share no row get one colour, and one evaluation of f with all of a
// colour's columns perturbed at once (or one dual-number sweep) gives all their entries.
// A distance-2 colouring of the column intersection graph, greedy: each column in turn
// takes the smallest colour no column sharing a row with it has. docs/benchmarks/scaling.md
// compares the colours with ColPack's orderings. Header-only: problem plugins
// (sdk/autodiff.hpp) and solvers (numerics/iteration_matrix) both use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace daekit {

struct ColumnColouring {
  int colours = 0;
  std::vector<int> colour_of;                          // per column
  std::vector<std::vector<std::size_t>> columns_of;    // per colour, in column order
};

namespace detail {

// The pattern's transpose: which columns have an entry in each row.
struct RowsToColumns {
  std::vector<std::size_t> start, column;
  template <class Index>
  RowsToColumns(std::size_t n, const Index* col_ptr, const Index* row_idx) : start(n + 1, 0) {
    for (std::size_t j = 0; j < n; ++j)
      for (auto p = col_ptr[j]; p < col_ptr[j + 1]; ++p) ++start[static_cast<std::size_t>(row_idx[p]) + 1];
    for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
    column.resize(start[n]);
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t j = 0; j < n; ++j)
      for (auto p = col_ptr[j]; p < col_ptr[j + 1]; ++p) column[fill[static_cast<std::size_t>(row_idx[p])]++] = j;
  }
  // f(k) for every column k sharing a row with column j (k == j and repeats included).
  template <class Index, class F>
  void for_each_neighbour(std::size_t j, const Index* col_ptr, const Index* row_idx, F&& f) const {
    for (auto p = col_ptr[j]; p < col_ptr[j + 1]; ++p) {
      const auto row = static_cast<std::size_t>(row_idx[p]);
      for (std::size_t q = start[row]; q < start[row + 1]; ++q) f(column[q]);
    }
  }
};

// Greedy colouring in the given order: each column the smallest colour no neighbour has.
template <class Index>
ColumnColouring greedy(std::size_t n, const Index* col_ptr, const Index* row_idx, const RowsToColumns& rows,
                       const std::vector<std::size_t>& order) {
  ColumnColouring c;
  c.colour_of.assign(n, -1);
  std::vector<std::size_t> forbidden_for(n + 1, n);  // colour -> the last column it was forbidden for
  for (const std::size_t j : order) {
    rows.for_each_neighbour(j, col_ptr, row_idx, [&](std::size_t k) {
      if (const int other = c.colour_of[k]; other >= 0) forbidden_for[static_cast<std::size_t>(other)] = j;
    });
    int colour = 0;
    while (forbidden_for[static_cast<std::size_t>(colour)] == j) ++colour;
    c.colour_of[j] = colour;
    c.colours = std::max(c.colours, colour + 1);
  }
  c.columns_of.assign(static_cast<std::size_t>(c.colours), {});
  for (std::size_t j = 0; j < n; ++j) c.columns_of[static_cast<std::size_t>(c.colour_of[j])].push_back(j);
  return c;
}

// The incidence-degree order (Coleman and More): next, the column with the most
// neighbours already ordered, ties to the lower index.
template <class Index>
std::vector<std::size_t> incidence_degree_order(std::size_t n, const Index* col_ptr, const Index* row_idx,
                                                const RowsToColumns& rows) {
  std::vector<std::size_t> order, incidence(n, 0), seen(n, n);
  std::vector<char> placed(n, 0);
  // Buckets by incidence, each a stack of candidates; stale entries are skipped.
  std::vector<std::vector<std::size_t>> bucket(1);
  for (std::size_t j = n; j-- > 0;) bucket[0].push_back(j);
  std::size_t top = 0;
  order.reserve(n);
  while (order.size() < n) {
    while (bucket[top].empty()) --top;
    const std::size_t j = bucket[top].back();
    bucket[top].pop_back();
    if (placed[j] || incidence[j] != top) continue;
    placed[j] = 1;
    order.push_back(j);
    rows.for_each_neighbour(j, col_ptr, row_idx, [&](std::size_t k) {
      if (placed[k] || seen[k] == j) return;
      seen[k] = j;
      if (++incidence[k] >= bucket.size()) bucket.resize(incidence[k] + 1);
      bucket[incidence[k]].push_back(k);
      top = std::max(top, incidence[k]);
    });
  }
  return order;
}

}  // namespace detail

// The pattern in CSC form (0-based, n columns; rows in [0, n)). Index is int or int32_t.
// Greedy in the natural and in the incidence-degree order, the one with fewer colours:
// natural suits bands and stencils numbered row by row, incidence degree irregular
// patterns (tba: 37 colours against 41).
template <class Index>
ColumnColouring colour_columns(std::size_t n, const Index* col_ptr, const Index* row_idx) {
  const detail::RowsToColumns rows(n, col_ptr, row_idx);
  std::vector<std::size_t> natural(n);
  for (std::size_t j = 0; j < n; ++j) natural[j] = j;
  ColumnColouring best = detail::greedy(n, col_ptr, row_idx, rows, natural);
  ColumnColouring by_incidence =
      detail::greedy(n, col_ptr, row_idx, rows, detail::incidence_degree_order(n, col_ptr, row_idx, rows));
  return by_incidence.colours < best.colours ? by_incidence : best;
}

}  // namespace daekit
