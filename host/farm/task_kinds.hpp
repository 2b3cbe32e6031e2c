// The kinds of run the task farm can be sent. The farm knows none of them: each client
// (wpd's points, ensemble's members) registers its own at start-up with a
// TaskKindRegistration beside its Executor, and a worker rank, which does not know which
// command rank 0 runs, serves every kind registered.
#pragma once

#include <string>

#include "task_farm.hpp"

namespace daekit::host::farm {

// Every kind registered so far.
const Executors& all_task_kinds();

// A static object of this type registers a kind (a second kind of the same name is a
// programming error: it aborts at start-up).
struct TaskKindRegistration {
  TaskKindRegistration(const std::string& kind, Executor executor);
};

}  // namespace daekit::host::farm
