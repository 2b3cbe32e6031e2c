// The problem instances of a sweep: each --problem with its parameters (--param for all
// or for one problem), and for a problem with --param-sweep KEY=V1,V2,... one instance
// per value, each a problem of the sweep in its own right (its points, references,
// diagrams and summary), labelled "fekete-N=40".
#pragma once

#include <map>
#include <string>
#include <vector>

namespace daekit::host::wpd {

struct Instance {
  std::string label;    // the problem's name, or "PROBLEM-KEY=VALUE" for a swept value
  std::string problem;  // the plugin
  std::map<std::string, std::string> params;
};

// The parameter a --param-sweep varies, and the instances it made, in order.
struct ParameterSweep {
  std::string problem, key;
  std::vector<std::string> values, labels;
};

struct Instances {
  std::vector<Instance> list;
  std::vector<ParameterSweep> sweeps;
};

// --param key=value applies to every problem, --param PROBLEM:key=value to that one (and
// wins over a key given for all); --param-sweep [PROBLEM:]KEY=V1,V2,... (at most one per
// problem) makes an instance per value. Throws UsageError for a PROBLEM that is not swept
// (with the closest), a key given twice, a swept key that --param also sets, an empty or
// repeated value.
Instances make_instances(const std::vector<std::string>& problems, const std::vector<std::string>& params,
                         const std::vector<std::string>& sweeps);

}  // namespace daekit::host::wpd
