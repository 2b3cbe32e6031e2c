#include "task_kinds.hpp"

#include <cstdio>
#include <cstdlib>

namespace daekit::host::farm {
namespace {

// A function's static: registrations in other files' static objects may run before any
// namespace-scope object of this file is constructed.
Executors& kinds() {
  static Executors registered;
  return registered;
}

}  // namespace

const Executors& all_task_kinds() { return kinds(); }

TaskKindRegistration::TaskKindRegistration(const std::string& kind, Executor executor) {
  if (!kinds().emplace(kind, std::move(executor)).second) {
    std::fprintf(stderr, "daekit: the task kind '%s' is registered twice\n", kind.c_str());
    std::abort();
  }
}

}  // namespace daekit::host::farm
