#include "stats_json.hpp"

#include <daekit/api/stat_fields.hpp>
#include <string>

namespace daekit::host {

using nlohmann::json;

json stats_to_json(const dk_stats& stats, bool with_beside) {
  json j = json::object();
  for (const api::StatField& f : api::stat_fields()) {
    if (f.beside_stats && !with_beside) continue;
    const api::StatValue v = api::stat_value(stats, f);
    const std::string key(f.name);
    if (const auto* i = std::get_if<std::int64_t>(&v)) j[key] = *i;
    if (const auto* d = std::get_if<double>(&v)) j[key] = *d;
    if (const auto* name = std::get_if<const char*>(&v)) j[key] = *name ? json(*name) : json(nullptr);
  }
  return j;
}

dk_stats stats_from_json(const json& j) {
  dk_stats stats{};
  if (!j.is_object()) return stats;
  for (const api::StatField& f : api::stat_fields()) {
    const auto it = j.find(std::string(f.name));
    if (it == j.end()) continue;
    if (it->is_number_integer())
      api::set_stat(stats, f, it->get<std::int64_t>());
    else if (it->is_number())
      api::set_stat(stats, f, it->get<double>());
    else if (it->is_string())
      api::set_stat(stats, f, it->get_ref<const std::string&>().c_str());
  }
  return stats;
}

}  // namespace daekit::host
