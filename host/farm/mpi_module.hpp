// The C table between the host and its MPI module (mpi_module.cpp): private to the
// host. The module is the only code that links MPI, and it is opened only when an MPI
// launcher (mpirun, srun) started the process, so `daekit` runs without MPI installed
// and a plain run never initialises it. The calls are not thread-safe: the caller makes
// sure one thread at a time is in the module.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

struct daekit_mpi_table {
  // MPI_Init; 0 on success, else an MPI error code (the message in `why`, `why_len` bytes).
  // *threads is set to 1 when several threads may call MPI one at a time (serialized).
  int (*init)(int* argc, char*** argv, char* why, int why_len, int* threads);
  int (*rank)(void);
  int (*size)(void);
  // The processor (host) name, at most `len` bytes with the terminating zero.
  void (*processor_name)(char* name, int len);
  // Sends without blocking: the bytes are copied and kept until delivered, so two ranks
  // sending to each other never wait on each other. 0 on success.
  int (*send)(int dest, int tag, const char* data, long long len);
  // Moves pending sends on; returns how many are still in flight.
  int (*progress)(void);
  // How many sends to `dest` are still in flight.
  int (*in_flight)(int dest);
  // 1 when a message waits (its source, tag and length filled in), 0 when none does.
  int (*probe)(int* source, int* tag, long long* len);
  // Receives the message `probe` announced. 0 on success.
  int (*receive)(int source, int tag, char* data, long long len);
  // Waits up to `seconds` for sends in flight (a dead peer never takes them), then MPI_Finalize.
  void (*finalize)(double seconds);
  // MPI_COMM_WORLD as MPI_Comm_c2f's integer: the communicator a distributed problem is
  // created on (dk_host::mpi_comm_f), which crosses the plugin boundary without MPI's header.
  long long (*world_handle)(void);
};

typedef const struct daekit_mpi_table* (*daekit_mpi_entry)(void);

#ifdef __cplusplus
}
#endif
