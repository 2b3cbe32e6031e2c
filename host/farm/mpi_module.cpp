// The host's MPI module: MPI behind the C table of mpi_module.hpp. Built when Open MPI
// (or another MPI) is found, opened by transport.cpp when a launcher started the process.
#include "mpi_module.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <list>
#include <string>
#include <thread>

namespace {

struct PendingSend {
  int dest = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  std::string bytes;  // kept alive until the send completes
};
std::list<PendingSend> pending;

void copy_message(int code, char* why, int why_len) {
  if (why_len <= 0) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) len = 0;
  std::snprintf(why, static_cast<std::size_t>(why_len), "%.*s", len, text);
}

int init(int* argc, char*** argv, char* why, int why_len, int* threads) {
  int provided = 0;
  // Serialized: rank 0's heartbeat thread sends while the main thread may be busy for
  // minutes (a reference solve); the transport lets one thread in at a time. Children
  // forked for the runs never call MPI.
  const int code = MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  if (code != MPI_SUCCESS) {
    copy_message(code, why, why_len);
    return code;
  }
  *threads = provided >= MPI_THREAD_SERIALIZED ? 1 : 0;
  // A failed call returns its code instead of aborting every rank: the host decides.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return 0;
}

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

void processor_name(char* name, int len) {
  char text[MPI_MAX_PROCESSOR_NAME];
  int n = 0;
  if (MPI_Get_processor_name(text, &n) != MPI_SUCCESS) n = 0;
  std::snprintf(name, static_cast<std::size_t>(len), "%.*s", n, text);
}

int progress() {
  for (auto it = pending.begin(); it != pending.end();) {
    int done = 0;
    if (MPI_Test(&it->request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) done = 1;  // failed: drop it
    it = done ? pending.erase(it) : std::next(it);
  }
  return static_cast<int>(pending.size());
}

int in_flight(int dest) {
  int n = 0;
  for (const auto& s : pending) n += s.dest == dest;
  return n;
}

int send(int dest, int tag, const char* data, long long len) {
  if (len > INT32_MAX) return MPI_ERR_COUNT;
  pending.push_back({dest, MPI_REQUEST_NULL, std::string(data, static_cast<std::size_t>(len))});
  PendingSend& s = pending.back();
  const int code = MPI_Isend(s.bytes.data(), static_cast<int>(len), MPI_CHAR, dest, tag, MPI_COMM_WORLD, &s.request);
  if (code != MPI_SUCCESS) pending.pop_back();
  progress();
  return code;
}

int probe(int* source, int* tag, long long* len) {
  int flag = 0;
  MPI_Status status;
  // A message that arrived since the last call is often matched only by the progress this
  // call makes: a second look finds it now instead of one poll interval later.
  for (int look = 0; look < 2 && !flag; ++look)
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS) return 0;
  if (!flag) return 0;
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  *source = status.MPI_SOURCE;
  *tag = status.MPI_TAG;
  *len = count;
  return 1;
}

int receive(int source, int tag, char* data, long long len) {
  return MPI_Recv(data, static_cast<int>(len), MPI_CHAR, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void finalize(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (progress() > 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  for (auto& s : pending) MPI_Request_free(&s.request);  // to a peer that is gone
  pending.clear();
  MPI_Finalize();
}

long long world_handle() { return static_cast<long long>(MPI_Comm_c2f(MPI_COMM_WORLD)); }

const daekit_mpi_table table{init,  rank,    size,     processor_name, send, progress, in_flight,
                             probe, receive, finalize, world_handle};

}  // namespace

extern "C" __attribute__((visibility("default"))) const daekit_mpi_table* daekit_mpi() { return &table; }
