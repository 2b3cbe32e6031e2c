#include "task_farm.hpp"

#include <algorithm>
#include <deque>
#include <iostream>
#include <sstream>

#include "local_runs.hpp"

namespace daekit::host::farm {
namespace {

using nlohmann::json;

}  // namespace

std::string run_task(const Executors& executors, const loader::Registry& registry, const std::string& kind,
                     const json& input, const SharedData& shared) {
  auto it = executors.find(kind);
  if (it == executors.end()) throw std::runtime_error("no run of kind '" + kind + "'");
  return it->second(registry, input, shared).dump();
}

RunReport report_of(const TaskOutcome& outcome, double timeout_s) {
  RunReport r;
  if (outcome.lost) {
    r.status = "internal_error";
    r.message = "lost: the rank running it " + outcome.lost_why;
    return r;
  }
  const ChildOutcome& end = outcome.child;
  if (end.end == ChildOutcome::End::timed_out) {
    std::ostringstream m;
    m << "killed after the timeout of " << timeout_s << " s per run";
    r.status = "timeout";
    r.message = m.str();
    return r;
  }
  const json result = json::parse(end.payload, nullptr, false);
  if (!result.is_object()) {
    r.status = "internal_error";
    r.message = end.end == ChildOutcome::End::crashed ? "the run " + end.describe(timeout_s)
                                                      : "the run ended without a result (" + end.describe(timeout_s) + ")";
    return r;
  }
  r.result = result;
  r.status = result.value("status", "internal_error");
  r.message = result.value("message", "");
  return r;
}

json plugin_search_to_json(const api::PluginSearch& s) {
  return {{"paths", s.paths}, {"files", s.files}, {"default_folders", s.default_folders}};
}

api::PluginSearch plugin_search_from_json(const json& j) {
  api::PluginSearch s;
  s.paths = j.at("paths").get<std::vector<std::string>>();
  s.files = j.at("files").get<std::vector<std::string>>();
  s.default_folders = j.at("default_folders").get<bool>();
  return s;
}

json outcome_to_json(const ChildOutcome& o) {
  const char* end = o.end == ChildOutcome::End::finished ? "finished"
                    : o.end == ChildOutcome::End::crashed ? "crashed"
                                                          : "timed_out";
  return {{"end", end}, {"signal", o.signal}, {"exit_code", o.exit_code}, {"payload", o.payload}};
}

ChildOutcome outcome_from_json(const json& j) {
  ChildOutcome o;
  const std::string end = j.at("end").get<std::string>();
  o.end = end == "finished" ? ChildOutcome::End::finished
          : end == "crashed" ? ChildOutcome::End::crashed
                             : ChildOutcome::End::timed_out;
  o.signal = j.at("signal").get<int>();
  o.exit_code = j.at("exit_code").get<int>();
  o.payload = j.at("payload").get<std::string>();
  return o;
}

Farm::Farm(const loader::Registry& registry, const api::PluginSearch& plugins, Executors executors,
           Transport* transport)
    : registry_(registry), plugins_(plugins), executors_(std::move(executors)), transport_(transport) {
  if (transport_)
    for (int r = 1; r < transport_->size(); ++r) workers_[r] = Worker{};
}

// One call of run(): what is still to start, how many have not finished, and the options.
struct Farm::Round {
  const std::vector<Task>& tasks;
  const FarmOptions& options;
  std::deque<std::size_t> pending;
  std::size_t open = 0;  // started or pending, not yet finished

  void finished(std::size_t index, const TaskOutcome& outcome) {
    --open;
    if (options.finished) options.finished(index, outcome);
  }
};

void Farm::give_up(Round& round, int rank, Worker& w, const std::string& why) {
  w.alive = false;
  transport_->forget(rank);
  for (std::size_t index : w.running) {
    TaskOutcome lost;
    lost.lost = true;
    lost.lost_why = why;
    lost.rank = rank;
    lost.child.end = ChildOutcome::End::crashed;
    round.finished(index, lost);
  }
  w.running.clear();
  std::cerr << "daekit: rank " << rank << " " << why << "; the other ranks go on\n";
}

// To the workers first (they have nothing else to do): the setup once, then runs up to --jobs.
void Farm::hand_out(Round& round, clock::time_point now) {
  const FarmOptions& o = round.options;
  const int jobs = std::max(1, o.jobs);
  for (auto& [rank, w] : workers_) {
    if (!w.alive) continue;
    if (!w.set_up) {
      transport_->send(rank, tag_setup, json{{"plugins", plugin_search_to_json(plugins_)},
                                             {"beat_s", o.silence_limit_s / 6},
                                             {"silence_limit_s", o.silence_limit_s}}.dump());
      w.set_up = true;
      w.last_heard = now;
    }
    while (!round.pending.empty() && static_cast<int>(w.running.size()) < jobs) {
      const std::size_t index = round.pending.front();
      const Task& t = round.tasks[index];
      for (const auto& key : t.shared)
        if (!w.has_shared.count(key)) {
          transport_->send(rank, tag_shared, json{{"key", key}, {"value", shared_.at(key)}}.dump());
          w.has_shared.insert(key);
        }
      if (!transport_->send(rank, tag_task, json{{"index", index}, {"kind", t.kind}, {"input", t.input},
                                                 {"shared", t.shared}, {"budget_s", t.budget_s}}.dump())) {
        give_up(round, rank, w, "refused a message");
        break;
      }
      round.pending.pop_front();
      if (w.running.empty()) w.last_heard = now;  // its silence counts from its first run
      w.running.insert(index);
      if (o.started) o.started(index);
    }
  }
}

// The workers' words: results, a worker that cannot run, heartbeats (any word counts).
void Farm::read_messages(Round& round, clock::time_point now) {
  while (auto m = transport_->receive()) {
    auto it = workers_.find(m->source);
    if (it == workers_.end() || !it->second.alive) continue;  // given up already: its word comes too late
    Worker& w = it->second;
    w.last_heard = now;
    const json body = json::parse(m->bytes, nullptr, false);
    if (m->tag == tag_result && body.is_object()) {
      const std::size_t index = body.at("index").get<std::size_t>();
      if (!w.running.erase(index)) continue;
      TaskOutcome outcome;
      outcome.child = outcome_from_json(body.at("outcome"));
      outcome.host = body.value("host", "");
      outcome.rank = m->source;
      round.finished(index, outcome);
    } else if (m->tag == tag_broken) {
      // It could not set itself up (its plugins): its runs go back to the others.
      for (std::size_t index : w.running) round.pending.push_front(index);
      w.running.clear();
      w.alive = false;
      std::cerr << "daekit: rank " << m->source << " cannot run: "
                << (body.is_object() ? body.value("why", "") : std::string("?")) << "; the other ranks go on\n";
    }
  }
  // Workers beat even when idle: one that died between runs is not handed the next.
  for (auto& [rank, w] : workers_) {
    if (!w.alive || !w.set_up) continue;
    const double silent = std::chrono::duration<double>(now - w.last_heard).count();
    if (silent > round.options.silence_limit_s)
      give_up(round, rank, w,
              "stopped answering for " + std::to_string(static_cast<int>(silent)) + " s (it died, or its machine did)" +
                  (w.running.empty() ? std::string() : std::string(": its run is recorded as lost")));
  }
}

void Farm::run(const std::vector<Task>& tasks, const std::vector<std::size_t>& which, const FarmOptions& o) {
  // Longest expected first: a long run started last would leave the other ranks idle at the end.
  std::vector<std::size_t> order = which;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return tasks[a].expected_cost > tasks[b].expected_cost; });
  Round round{tasks, o, std::deque<std::size_t>(order.begin(), order.end()), order.size()};
  LocalRuns local;
  const std::string here = transport_ ? transport_->host() : local_host_name();
  auto stop_requested = [&] { return o.interrupted && *o.interrupted; };
  if (transport_) announce_coordinator(*transport_, o.silence_limit_s);
  auto live_workers = [&] {
    return std::count_if(workers_.begin(), workers_.end(), [](const auto& w) { return w.second.alive; });
  };
  while (round.open > 0 && !stop_requested()) {
    if (transport_) hand_out(round, clock::now());
    // Rank 0 runs its share; it runs everything when no worker is left.
    const int local_jobs = live_workers() == 0 ? std::max(1, o.coordinator_jobs) : o.coordinator_jobs;
    while (!round.pending.empty() && static_cast<int>(local.size()) < local_jobs) {
      const std::size_t index = round.pending.front();
      round.pending.pop_front();
      const Task& t = tasks[index];
      local.start(index, [&] { return run_task(executors_, registry_, t.kind, t.input, shared_); }, t.budget_s);
      if (o.started) o.started(index);
    }
    // With workers the coordinator must answer them quickly; alone it sleeps in poll.
    for (auto& [index, end] : local.collect(live_workers() > 0 ? 1 : 100)) {
      TaskOutcome outcome;
      outcome.child = std::move(end);
      outcome.host = here;
      round.finished(index, outcome);
    }
    if (o.tick) o.tick();
    if (transport_) read_messages(round, clock::now());
  }
  // Interrupted: local children die with `local`; workers are told to stop at the end of the command.
}

void announce_coordinator(Transport& transport, double silence_limit_s) {
  transport.keep_alive(tag_beat, silence_limit_s / 6, json{{"silence_limit_s", silence_limit_s}}.dump());
}

void stop_workers(Transport& transport) {
  static bool stopped = false;
  if (stopped || transport.rank() != 0) return;
  stopped = true;
  for (int r = 1; r < transport.size(); ++r) transport.send(r, tag_stop, "{}");
}

}  // namespace daekit::host::farm
