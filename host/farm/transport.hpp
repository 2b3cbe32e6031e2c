// The ranks of an MPI launch, seen by the host: who this process is, and messages of
// bytes to and from the others. Opened only when a launcher (mpirun, srun, mpiexec)
// started the process; the MPI library itself stays in a module (mpi_module.cpp), so
// `daekit` needs no MPI to run and never initialises it outside such a launch.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace daekit::host::farm {

struct Message {
  int source = 0, tag = 0;
  std::string bytes;
};

// How many processes a launcher (mpirun, srun, hydra) started together with this one, and
// this one's rank among them, from the launcher's environment (size 1, rank 0 without one).
struct LaunchShape {
  int size = 1;
  int rank = 0;
};
LaunchShape launch_shape();

class Transport {
 public:
  // The launch this process belongs to, or null when no MPI launcher started it (a
  // launch of one rank is null too: it runs as a plain process). Throws UsageError when
  // a launcher started several processes but this daekit cannot join them (built
  // without MPI, or srun without an MPI plugin).
  static std::unique_ptr<Transport> from_environment(int* argc, char*** argv);
  // MPI_Finalize, after the sends in flight (a few seconds at most). A rank that died
  // unnoticed or was lost can make Open MPI's finalize wait for it for ever: this process
  // then leaves after 30 s without it, with the exit code set_exit_code() gave. A worker
  // that lost rank 0 leaves at once: there is nobody left to finish with.
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string& host() const { return host_; }
  // MPI_COMM_WORLD as a Fortran handle (MPI_Comm_c2f), for a problem spread over the ranks.
  long long world_handle() const;
  // Does not block (the bytes are copied); false when MPI refused the send.
  bool send(int dest, int tag, const std::string& bytes);
  // A waiting message from any rank, or nothing. Also moves pending sends on.
  std::optional<Message> receive();
  // A rank given up (it died or stopped answering): nothing is sent to it any more, so no
  // send to a dead peer stays in flight.
  void forget(int rank);
  bool lost(int rank) const;
  void set_exit_code(int code) { exit_code_ = code; }

  // Sends `bytes` with `tag` to every other rank every `interval_s` seconds, whatever
  // this process is busy with: the others can tell it is alive. From a thread of its own
  // when MPI allows (MPI_THREAD_SERIALIZED), else from receive() (then only while the
  // caller polls). A call replaces the previous heartbeat; a send still in flight to a
  // rank delays its next beat (a dead peer never takes them, and they must not pile up).
  void keep_alive(int tag, double interval_s, const std::string& bytes);

 private:
  struct Module;
  explicit Transport(std::unique_ptr<Module> module);
  bool send_locked(int dest, int tag, const std::string& bytes);
  void beat_if_due_locked();
  void beat_loop();
  std::unique_ptr<Module> module_;
  int rank_ = 0, size_ = 1;
  std::string host_;
  int exit_code_ = 0;
  bool threads_ = false;  // MPI may be called from the heartbeat thread

  mutable std::mutex mutex_;  // one thread at a time in the module; guards what follows
  std::set<int> lost_;
  struct Beat {
    int tag = 0;
    std::chrono::duration<double> interval{0};
    std::string bytes;
    std::chrono::steady_clock::time_point last;
  };
  std::optional<Beat> beat_;
  bool closing_ = false;
  std::condition_variable wake_;
  std::thread beat_thread_;
};

// The launch of this process, as main() opened it (null without one): the commands
// that spread runs over ranks (wpd, ensemble) read it.
Transport*& current_launch();

// The name of this machine (gethostname), for rows run without MPI.
std::string local_host_name();

}  // namespace daekit::host::farm
