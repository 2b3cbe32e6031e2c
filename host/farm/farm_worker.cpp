// A worker rank: it waits for its setup (how to find the plugins), then runs each task
// it is sent in a child of its own, as rank 0 does locally, and answers with the outcome.
// It says it is alive every few seconds, so rank 0 can tell a long run from a dead rank,
// and hears rank 0 say the same: when rank 0 stays silent past the limit it announced, it
// died, and this rank kills its runs and leaves. It writes no files: everything goes back
// to rank 0 (whose journal keeps the finished points).
#include <daekit/api/discovery.hpp>
#include <iostream>
#include <optional>

#include "local_runs.hpp"
#include "task_farm.hpp"

namespace daekit::host::farm {

int worker_main(Transport& transport, const Executors& executors) {
  using nlohmann::json;
  using clock = std::chrono::steady_clock;
  std::optional<loader::Registry> registry;
  SharedData shared;
  double beat_s = default_silence_limit_s / 6, coordinator_limit_s = default_silence_limit_s;
  LocalRuns running;
  auto last_beat = clock::now(), coordinator_heard = clock::now();
  for (;;) {
    while (auto m = transport.receive()) {
      if (m->tag == tag_stop) return 0;  // children still running are killed as `running` goes
      if (m->source == 0) coordinator_heard = clock::now();
      const json body = json::parse(m->bytes, nullptr, false);
      if (!body.is_object()) continue;
      if (body.contains("silence_limit_s") && body["silence_limit_s"].is_number())
        coordinator_limit_s = body["silence_limit_s"].get<double>();
      if (m->tag == tag_setup) {
        beat_s = body.value("beat_s", beat_s);
        try {
          registry.emplace(api::discover_plugins(plugin_search_from_json(body.at("plugins")), /*warn_skipped=*/false));
        } catch (const std::exception& e) {
          transport.send(0, tag_broken, json{{"why", std::string(e.what()) + " (on " + transport.host() + ")"}}.dump());
        }
      } else if (m->tag == tag_shared) {
        shared[body.at("key").get<std::string>()] = body.at("value");
      } else if (m->tag == tag_task && registry) {
        const std::string kind = body.at("kind").get<std::string>();
        const json& input = body.at("input");
        running.start(body.at("index").get<std::size_t>(),
                      [&] { return run_task(executors, *registry, kind, input, shared); }, body.value("budget_s", 0.0));
      }
    }
    for (const auto& [index, outcome] : running.collect(1))
      transport.send(0, tag_result,
                     json{{"index", index}, {"outcome", outcome_to_json(outcome)}, {"host", transport.host()}}.dump());
    const auto now = clock::now();
    if (std::chrono::duration<double>(now - last_beat).count() > beat_s) {
      transport.send(0, tag_beat, "{}");
      last_beat = now;
    }
    const double silent = std::chrono::duration<double>(now - coordinator_heard).count();
    if (silent > coordinator_limit_s) {
      std::cerr << "daekit: rank " << transport.rank() << ": rank 0 has not been heard for "
                << static_cast<int>(silent) << " s (it died, or its machine did); this rank stops "
                << running.size() << " run(s) and leaves (rank 0's results.jsonl keeps the finished points: "
                << "--resume goes on)\n";
      transport.forget(0);
      transport.set_exit_code(1);
      return 1;  // children still running are killed as `running` goes
    }
  }
}

}  // namespace daekit::host::farm
