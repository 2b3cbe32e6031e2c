#include "task_kinds.hpp"

#include "../ensemble/member_task.hpp"
#include "../wpd/point_task.hpp"

namespace daekit::host::farm {

Executors all_task_kinds() {
  return {{wpd::point_task_kind, wpd::execute_point}, {ensemble::member_task_kind, ensemble::execute_member}};
}

}  // namespace daekit::host::farm
