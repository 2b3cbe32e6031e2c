#include "daekit/numerics/dense_history.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace daekit {
namespace {

constexpr int kMaxDegree = 16;

// Chebyshev-Lobatto points mapped to [0, 1]: x_j = (1 - cos(pi j / d)) / 2.
std::vector<double> lobatto_nodes(int degree) {
  std::vector<double> x(static_cast<std::size_t>(degree) + 1);
  const double pi = std::acos(-1.0);
  for (int j = 0; j <= degree; ++j) x[static_cast<std::size_t>(j)] = 0.5 * (1.0 - std::cos(pi * j / degree));
  x.front() = 0.0;
  x.back() = 1.0;
  return x;
}

}  // namespace

const std::vector<double>& DenseHistory::nodes(int degree) {
  static const std::array<std::vector<double>, kMaxDegree + 1> table = [] {
    std::array<std::vector<double>, kMaxDegree + 1> t;
    t[0] = {0.0};
    for (int d = 1; d <= kMaxDegree; ++d) t[static_cast<std::size_t>(d)] = lobatto_nodes(d);
    return t;
  }();
  if (degree < 1 || degree > kMaxDegree) throw std::invalid_argument("dense output degree out of range");
  return table[static_cast<std::size_t>(degree)];
}

void DenseHistory::reset(std::size_t n) {
  n_ = n;
  segments_.clear();
  values_.clear();
}

void DenseHistory::add(double t_a, double t_b, int degree, const Eigen::MatrixXd& samples) {
  if (t_a == t_b) return;  // an empty step (a stop landed on exactly) adds nothing
  const std::size_t count = static_cast<std::size_t>(degree) + 1;
  if (static_cast<std::size_t>(samples.rows()) != n_ || static_cast<std::size_t>(samples.cols()) != count)
    throw std::invalid_argument("dense output samples of the wrong shape");
  segments_.push_back({t_a, t_b, degree, values_.size()});
  values_.insert(values_.end(), samples.data(), samples.data() + n_ * count);
}

double DenseHistory::t_first() const { return segments_.empty() ? 0.0 : segments_.front().t_a; }
double DenseHistory::t_last() const { return segments_.empty() ? 0.0 : segments_.back().t_b; }

bool DenseHistory::evaluate(double t, double* y) const {
  if (segments_.empty() || !std::isfinite(t)) return false;
  const double dir = segments_.front().t_b > segments_.front().t_a ? 1.0 : -1.0;
  if (dir * (t - t_first()) < 0.0 || dir * (t - t_last()) > 0.0) return false;
  // The last segment that starts at or before t (in the direction of integration).
  auto after = std::upper_bound(segments_.begin(), segments_.end(), t,
                                [dir](double value, const Segment& s) { return dir * (value - s.t_a) < 0.0; });
  if (after == segments_.begin()) return false;
  const Segment& s = *(after - 1);
  if (dir * (t - s.t_b) > 0.0) return false;  // a gap (none is made today; never extrapolate)
  const std::vector<double>& x = nodes(s.degree);
  const double theta = (t - s.t_a) / (s.t_b - s.t_a);
  const double* v = values_.data() + s.offset;
  // Barycentric form, second kind, with the Chebyshev-Lobatto weights (-1)^j, halved at the ends.
  std::array<double, kMaxDegree + 1> w{};
  double sum = 0.0;
  for (int j = 0; j <= s.degree; ++j) {
    const double diff = theta - x[static_cast<std::size_t>(j)];
    if (diff == 0.0) {
      std::copy(v + static_cast<std::size_t>(j) * n_, v + static_cast<std::size_t>(j + 1) * n_, y);
      return true;
    }
    double wj = (j % 2 == 0 ? 1.0 : -1.0) / diff;
    if (j == 0 || j == s.degree) wj *= 0.5;
    w[static_cast<std::size_t>(j)] = wj;
    sum += wj;
  }
  std::fill(y, y + n_, 0.0);
  for (int j = 0; j <= s.degree; ++j) {
    const double c = w[static_cast<std::size_t>(j)] / sum;
    const double* col = v + static_cast<std::size_t>(j) * n_;
    for (std::size_t i = 0; i < n_; ++i) y[i] += c * col[i];
  }
  return true;
}

}  // namespace daekit
