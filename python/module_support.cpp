#include "module_support.hpp"

#include <memory>
#include <mutex>
#include <daekit/api/stat_fields.hpp>

namespace daekit::python {

const Registry& registry() {
  static std::once_flag once;
  static std::unique_ptr<Registry> r;
  std::call_once(once, [] { r = std::make_unique<Registry>(); });
  return *r;
}

py::dict stats_dict(const dk_stats& s) {
  py::dict d;
  for (const api::StatField& f : api::stat_fields()) {
    const api::StatValue v = api::stat_value(s, f);
    const py::str key(f.name.data(), f.name.size());
    if (const auto* i = std::get_if<std::int64_t>(&v)) d[key] = *i;
    if (const auto* x = std::get_if<double>(&v)) d[key] = *x;
    if (const auto* name = std::get_if<const char*>(&v)) d[key] = *name ? py::object(py::str(*name)) : py::none();
  }
  return d;
}

std::atomic<bool> sigint_during_solve{false};
extern "C" void note_sigint(int) { sigint_during_solve.store(true); }

}  // namespace daekit::python
