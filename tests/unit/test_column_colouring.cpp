// Column colouring for compressed difference Jacobians: a colour's columns never share a
// row (else their differences would mix), and the count is what the pattern allows.
#include <catch2/catch.hpp>
#include <daekit/numerics/column_colouring.hpp>
#include <random>
#include <set>

namespace {

struct Pattern {
  std::size_t n = 0;
  std::vector<int> col_ptr{0}, row_idx;
  void add_column(const std::set<int>& rows) {
    row_idx.insert(row_idx.end(), rows.begin(), rows.end());
    col_ptr.push_back(static_cast<int>(row_idx.size()));
    ++n;
  }
};

void require_valid(const Pattern& p, const daekit::ColumnColouring& c) {
  REQUIRE(c.colour_of.size() == p.n);
  std::size_t listed = 0;
  for (int colour = 0; colour < c.colours; ++colour) {
    std::set<int> rows_taken;
    for (const std::size_t j : c.columns_of[static_cast<std::size_t>(colour)]) {
      REQUIRE(c.colour_of[j] == colour);
      for (int k = p.col_ptr[j]; k < p.col_ptr[j + 1]; ++k) REQUIRE(rows_taken.insert(p.row_idx[k]).second);
      ++listed;
    }
  }
  REQUIRE(listed == p.n);
}

}  // namespace

TEST_CASE("a band of width w takes w colours", "[unit][colouring]") {
  for (int lower : {0, 1, 2, 5})
    for (int upper : {0, 1, 3}) {
      Pattern p;
      const int n = 60;
      for (int j = 0; j < n; ++j) {
        std::set<int> rows;
        for (int i = std::max(0, j - upper); i <= std::min(n - 1, j + lower); ++i) rows.insert(i);
        p.add_column(rows);
      }
      const auto c = daekit::colour_columns(p.n, p.col_ptr.data(), p.row_idx.data());
      require_valid(p, c);
      CHECK(c.colours == lower + upper + 1);
    }
}

TEST_CASE("random patterns are coloured validly, a dense row needs one colour per column", "[unit][colouring]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    Pattern p;
    const int n = 1 + static_cast<int>(rng() % 120);
    std::uniform_int_distribution<int> row(0, n - 1), count(0, 6);
    for (int j = 0; j < n; ++j) {
      std::set<int> rows = {j};
      for (int k = count(rng); k > 0; --k) rows.insert(row(rng));
      p.add_column(rows);
    }
    const auto c = daekit::colour_columns(p.n, p.col_ptr.data(), p.row_idx.data());
    require_valid(p, c);
    // At least the largest number of entries in one row; at most one colour per column.
    std::vector<int> per_row(static_cast<std::size_t>(n), 0);
    for (int r : p.row_idx) ++per_row[static_cast<std::size_t>(r)];
    CHECK(c.colours >= *std::max_element(per_row.begin(), per_row.end()));
    CHECK(c.colours <= n);
  }
  Pattern dense_row;
  for (int j = 0; j < 30; ++j) dense_row.add_column({0, j});
  const auto c = daekit::colour_columns(dense_row.n, dense_row.col_ptr.data(), dense_row.row_idx.data());
  require_valid(dense_row, c);
  CHECK(c.colours == 30);
}

TEST_CASE("a chain of column pairs takes the colours its structure needs", "[unit][colouring]") {
  // Columns 2k and 2k+1 share row k; column 2k also shares row m + k with column 2k + 3.
  // Every column meets at most two others: a path of conflicts, which 2 colours could
  // cover and a greedy order may need 3 for; never more.
  Pattern p;
  const int m = 20;
  std::vector<std::set<int>> cols(2 * m);
  for (int k = 0; k < m; ++k) {
    cols[static_cast<std::size_t>(2 * k)].insert(k);
    cols[static_cast<std::size_t>(2 * k + 1)].insert(k);
    if (2 * k + 3 < 2 * m) {
      cols[static_cast<std::size_t>(2 * k)].insert(m + k);
      cols[static_cast<std::size_t>(2 * k + 3)].insert(m + k);
    }
  }
  for (auto& c : cols) p.add_column(c);
  const auto c = daekit::colour_columns(p.n, p.col_ptr.data(), p.row_idx.data());
  require_valid(p, c);
  CHECK(c.colours <= 3);
}
