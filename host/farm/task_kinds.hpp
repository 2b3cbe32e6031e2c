// Every kind of run the task farm knows: what a worker rank can be sent.
#pragma once

#include "task_farm.hpp"

namespace daekit::host::farm {

Executors all_task_kinds();

}  // namespace daekit::host::farm
