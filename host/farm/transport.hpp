// The ranks of an MPI launch, seen by the host: who this process is, and messages of
// bytes to and from the others. Opened only when a launcher (mpirun, srun, mpiexec)
// started the process; the MPI library itself stays in a module (mpi_module.cpp), so
// `daekit` needs no MPI to run and never initialises it outside such a launch.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

namespace daekit::host::farm {

struct Message {
  int source = 0, tag = 0;
  std::string bytes;
};

class Transport {
 public:
  // The launch this process belongs to, or null when no MPI launcher started it (a
  // launch of one rank is null too: it runs as a plain process). Throws UsageError when
  // a launcher started several processes but this daekit cannot join them (built
  // without MPI, or srun without an MPI plugin).
  static std::unique_ptr<Transport> from_environment(int* argc, char*** argv);
  // MPI_Finalize, after the sends in flight (a few seconds at most). After a rank was lost
  // Open MPI's finalize may wait for it for ever: then this process leaves after 30 s
  // without it, with the exit code set_exit_code() gave.
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string& host() const { return host_; }
  // Does not block (the bytes are copied); false when MPI refused the send.
  bool send(int dest, int tag, const std::string& bytes);
  // A waiting message from any rank, or nothing. Also moves pending sends on.
  std::optional<Message> receive();
  // A rank given up (it died or stopped answering): nothing is sent to it any more, so no
  // send to a dead peer stays in flight.
  void forget(int rank) { lost_.insert(rank); }
  void set_exit_code(int code) { exit_code_ = code; }

 private:
  struct Module;
  explicit Transport(std::unique_ptr<Module> module);
  std::unique_ptr<Module> module_;
  int rank_ = 0, size_ = 1;
  std::string host_;
  std::set<int> lost_;
  int exit_code_ = 0;
};

// The launch of this process, as main() opened it (null without one): the commands
// that spread runs over ranks (wpd, ensemble) read it.
Transport*& current_launch();

// The name of this machine (gethostname), for rows run without MPI.
std::string local_host_name();

}  // namespace daekit::host::farm
