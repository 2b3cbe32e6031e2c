// Many independent runs (the points of a sweep, the members of an ensemble), each in a
// child process of its own (fork: a crash or a hang ends that run only), spread over the
// ranks of an MPI launch when there is one. Rank 0 coordinates: it hands out the runs
// one at a time, the longest expected first (dynamic scheduling), runs some itself, and
// alone writes files; the other ranks only run what they are sent (farm_worker.cpp).
// Without MPI the same code runs everything in local children.
#pragma once

#include <daekit/api/discovery.hpp>
#include <daekit/loader/registry.hpp>
#include <chrono>
#include <csignal>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "../child_process.hpp"
#include "transport.hpp"

namespace daekit::host::farm {

// Data several runs read (a reference trajectory): sent to a rank once, before its first run that needs it.
using SharedData = std::map<std::string, nlohmann::json>;
// What a kind of run does, in the child: from its input to its result. Runs on any rank.
using Executor = std::function<nlohmann::json(const loader::Registry&, const nlohmann::json& input, const SharedData&)>;
using Executors = std::map<std::string, Executor>;

struct Task {
  std::string kind;          // the Executor that runs it
  nlohmann::json input;
  std::vector<std::string> shared;  // keys of the SharedData it reads
  double budget_s = 0;       // killed after this many seconds; 0: no limit
  double expected_cost = 1;  // only its order matters: the costliest runs start first
};

struct TaskOutcome {
  ChildOutcome child;  // how the run ended; its payload is the Executor's result as JSON text
  std::string host;    // the machine that ran it
  int rank = 0;        // the MPI rank that ran it (0 without MPI)
  bool lost = false;   // the rank running it stopped answering: no outcome exists
  std::string lost_why;
};

// Seconds a rank may be silent before the others give it up (--silence-limit).
constexpr double default_silence_limit_s = 60;

struct FarmOptions {
  int jobs = 1;                 // runs each rank does at once
  int coordinator_jobs = 1;     // runs rank 0 does besides coordinating (the ranks alone when 0)
  double silence_limit_s = default_silence_limit_s;  // a rank silent this long is given up
  const volatile std::sig_atomic_t* interrupted = nullptr;  // set: running children are killed, the rest left
  std::function<void(std::size_t)> started;
  std::function<void(std::size_t, const TaskOutcome&)> finished;
  std::function<void()> tick;  // at least every 100 ms while runs go on
};

// Message tags between the coordinator and the workers.
enum Tag : int { tag_setup = 1, tag_shared, tag_task, tag_result, tag_beat, tag_broken, tag_stop };

class Farm {
 public:
  // transport: null without MPI. plugins: how the workers find the same plugins.
  Farm(const loader::Registry& registry, const api::PluginSearch& plugins, Executors executors, Transport* transport);
  void share(const std::string& key, nlohmann::json value) { shared_[key] = std::move(value); }
  int ranks() const { return transport_ ? transport_->size() : 1; }
  // Runs tasks[i] for every i in `which`; returns when all have finished (or been lost)
  // or when interrupted.
  void run(const std::vector<Task>& tasks, const std::vector<std::size_t>& which, const FarmOptions& options);

 private:
  using clock = std::chrono::steady_clock;
  struct Worker {
    bool alive = true, set_up = false;
    std::set<std::size_t> running;
    std::set<std::string> has_shared;
    clock::time_point last_heard;
  };
  struct Round;
  void hand_out(Round& round, clock::time_point now);
  void read_messages(Round& round, clock::time_point now);
  void give_up(Round& round, int rank, Worker& w, const std::string& why);
  const loader::Registry& registry_;
  api::PluginSearch plugins_;
  Executors executors_;
  Transport* transport_;
  SharedData shared_;
  std::map<int, Worker> workers_;
};

// The child's work for one task on any rank: its Executor on that rank's registry and
// shared data, the result as JSON text.
std::string run_task(const Executors& executors, const loader::Registry& registry, const std::string& kind,
                     const nlohmann::json& input, const SharedData& shared);

// How a run ended, in the words every record uses: the Executor's result when the run
// finished with one; otherwise `status` (timeout, internal_error) and a message saying what
// happened instead (lost with its rank, killed after its budget, crashed or ended without
// a result). timeout_s: the per-run limit, for the message.
struct RunReport {
  nlohmann::json result;  // null without one
  std::string status, message;
  bool has_result() const { return result.is_object(); }
};
RunReport report_of(const TaskOutcome& outcome, double timeout_s);

// A worker rank's life: set up by the coordinator, run what it is sent, stop when told.
// It leaves by itself, its runs killed, when rank 0 has not been heard for the silence
// limit rank 0 announced (60 s until it says otherwise): rank 0 died.
int worker_main(Transport& transport, const Executors& executors);
// Rank 0 says it is alive to every worker every silence_limit_s / 6 seconds from now on,
// whatever it is busy with, and that a worker may give it up after silence_limit_s.
void announce_coordinator(Transport& transport, double silence_limit_s);

// Tells every worker to stop (rank 0, before MPI is finalised; safe to call twice).
void stop_workers(Transport& transport);

// The serial form of a PluginSearch, for the workers.
nlohmann::json plugin_search_to_json(const api::PluginSearch& s);
api::PluginSearch plugin_search_from_json(const nlohmann::json& j);
// A ChildOutcome as a message and back.
nlohmann::json outcome_to_json(const ChildOutcome& o);
ChildOutcome outcome_from_json(const nlohmann::json& j);

}  // namespace daekit::host::farm
