// The members of an ensemble: the cartesian product of the grids (--param-grid), each
// point of it sampled --samples times from the distributions (--param-random). Every
// draw comes from one seeded generator in member order, on rank 0 alone, so the members
// are the same on one process and on any number of ranks; and with the same seed on
// another machine, since the engine (mt19937_64) and the transforms here are specified
// to the bit where std::normal_distribution is not (up to libm's exp/log/cos, which
// glibc computes the same on every x86-64).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace daekit::host::ensemble {

// k=FROM:TO:COUNT (evenly spaced), k=FROM:TO:COUNT:log (evenly in log), k=a,b,c.
struct GridAxis {
  std::string key;
  std::vector<double> values;
};
GridAxis parse_grid(const std::string& spec);

// k=normal(MEAN,SD), k=lognormal(MU,SIGMA) (exp of a normal), k=uniform(LOW,HIGH).
struct RandomParameter {
  enum class Law { normal, lognormal, uniform } law = Law::normal;
  std::string key;
  double a = 0, b = 0;
  std::string text;  // as given, for the records
};
RandomParameter parse_random(const std::string& spec);

struct Member {
  std::size_t grid_point = 0;  // which point of the grid (0 without one)
  std::size_t sample = 0;      // which draw at that point
  std::map<std::string, double> values;  // the varied parameters
};

// Throws UsageError for a key varied twice or given also as a fixed --param.
std::vector<Member> make_members(const std::vector<GridAxis>& grid, const std::vector<RandomParameter>& random,
                                 std::size_t samples, std::uint64_t seed);

// A parameter value as the problem reads it: shortest text that reads back to the same double.
std::string parameter_text(double v);

}  // namespace daekit::host::ensemble
