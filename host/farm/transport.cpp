#include "transport.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <daekit/api/discovery.hpp>
#include <daekit/process_role.hpp>

#include "../cli.hpp"
#include "mpi_module.hpp"

namespace daekit::host::farm {
namespace {

// The tasks of the job step srun started this process in (0 outside one).
int slurm_tasks() {
  const char* n = std::getenv("SLURM_STEP_NUM_TASKS");
  return n ? std::atoi(n) : 0;
}

// The module lives beside libdaekit (the library this host is built on), in the build
// tree (lib/) and the install tree (the libdir) alike.
std::filesystem::path module_path() {
  Dl_info where{};
  if (!dladdr(reinterpret_cast<void*>(&api::default_plugin_dirs), &where) || !where.dli_fname)
    return "libdaekit_mpi.so";
  return std::filesystem::path(where.dli_fname).parent_path() / "libdaekit_mpi.so";
}

int number_from(std::initializer_list<const char*> names, int fallback) {
  for (const char* name : names)
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return fallback;
}

}  // namespace

LaunchShape launch_shape() {
  LaunchShape shape;
  shape.size = number_from({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}, 1);
  shape.rank = number_from({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}, 0);
  return shape;
}

// The module is never closed: the MPI library's own exit handlers may still run.
struct Transport::Module {
  void* handle = nullptr;
  const daekit_mpi_table* table = nullptr;
};

std::unique_ptr<Transport> Transport::from_environment(int* argc, char*** argv) {
  if (!launched_by_mpi()) {
    if (slurm_tasks() > 1)
      throw UsageError("srun started " + std::to_string(slurm_tasks()) +
                       " tasks without an MPI plugin: each would run the whole command; use srun --mpi=pmix "
                       "(see docs/scale.md)");
    return nullptr;
  }
  const auto path = module_path();
  auto module = std::make_unique<Module>();
  // RTLD_GLOBAL: Open MPI's own components resolve their symbols in libmpi.
  module->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!module->handle)
    throw UsageError("an MPI launcher started this process, but this daekit has no MPI module (" + path.string() +
                     ": " + dlerror() + "); build daekit with libopenmpi-dev installed");
  auto entry = reinterpret_cast<daekit_mpi_entry>(dlsym(module->handle, "daekit_mpi"));
  if (!entry || !(module->table = entry())) throw UsageError(path.string() + " is not daekit's MPI module");
  char why[512] = "";
  int threads = 0;
  if (module->table->init(argc, argv, why, sizeof why, &threads) != 0)
    throw UsageError(std::string("MPI_Init failed: ") + why);
  auto t = std::unique_ptr<Transport>(new Transport(std::move(module)));
  t->threads_ = threads != 0;
  if (t->size_ == 1 && slurm_tasks() > 1)
    throw UsageError("srun started " + std::to_string(slurm_tasks()) +
                     " tasks, but MPI sees one: the MPI plugin of srun does not match Open MPI's (try srun --mpi=pmix)");
  if (t->size_ == 1) return nullptr;  // one rank: a plain process (MPI is finalised by the destructor)
  return t;
}

Transport::Transport(std::unique_ptr<Module> module) : module_(std::move(module)) {
  rank_ = module_->table->rank();
  size_ = module_->table->size();
  char name[256] = "";
  module_->table->processor_name(name, sizeof name);
  host_ = name;
}

Transport::~Transport() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  if (beat_thread_.joinable()) beat_thread_.join();
  std::fflush(nullptr);
  if (rank_ != 0 && lost_.count(0)) std::_Exit(exit_code_);
  const int code = exit_code_;
  std::thread([code] {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    std::fprintf(stderr, "daekit: MPI_Finalize did not return in 30 s (a rank was lost); leaving without it\n");
    std::fflush(nullptr);
    std::_Exit(code);
  }).detach();
  module_->table->finalize(5.0);
}

long long Transport::world_handle() const {
  std::lock_guard lock(mutex_);
  return module_->table->world_handle();
}

void Transport::forget(int rank) {
  std::lock_guard lock(mutex_);
  lost_.insert(rank);
}

bool Transport::lost(int rank) const {
  std::lock_guard lock(mutex_);
  return lost_.count(rank) > 0;
}

bool Transport::send(int dest, int tag, const std::string& bytes) {
  std::lock_guard lock(mutex_);
  return send_locked(dest, tag, bytes);
}

bool Transport::send_locked(int dest, int tag, const std::string& bytes) {
  if (lost_.count(dest)) return true;  // nobody to take it
  return module_->table->send(dest, tag, bytes.data(), static_cast<long long>(bytes.size())) == 0;
}

std::optional<Message> Transport::receive() {
  std::lock_guard lock(mutex_);
  if (!threads_) beat_if_due_locked();
  module_->table->progress();
  Message m;
  long long len = 0;
  if (!module_->table->probe(&m.source, &m.tag, &len)) return std::nullopt;
  m.bytes.resize(static_cast<std::size_t>(len));
  if (module_->table->receive(m.source, m.tag, m.bytes.data(), len) != 0) return std::nullopt;
  return m;
}

void Transport::keep_alive(int tag, double interval_s, const std::string& bytes) {
  {
    std::lock_guard lock(mutex_);
    // Sent at once: the others learn the new words (a new silence limit) now.
    beat_ = Beat{tag, std::chrono::duration<double>(interval_s), bytes, {}};
    beat_if_due_locked();
  }
  if (threads_ && !beat_thread_.joinable()) beat_thread_ = std::thread([this] { beat_loop(); });
  wake_.notify_all();
}

void Transport::beat_if_due_locked() {
  const auto now = std::chrono::steady_clock::now();
  if (!beat_ || now - beat_->last < beat_->interval) return;
  beat_->last = now;
  module_->table->progress();
  for (int r = 0; r < size_; ++r)
    if (r != rank_ && module_->table->in_flight(r) == 0) send_locked(r, beat_->tag, beat_->bytes);
}

void Transport::beat_loop() {
  std::unique_lock lock(mutex_);
  while (!closing_) {
    beat_if_due_locked();
    // Woken early by keep_alive (a new interval) or the destructor; a spurious wake only looks.
    wake_.wait_for(lock, beat_ ? beat_->interval : std::chrono::duration<double>(1.0));
  }
}

Transport*& current_launch() {
  static Transport* launch = nullptr;
  return launch;
}

std::string local_host_name() {
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace daekit::host::farm
