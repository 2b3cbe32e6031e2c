// Host side of the plugin boundary: finding plugin files, reading and checking
// their manifests from the file (no code of a plugin runs until a command needs
// that plugin), and handles that keep a plugin's library loaded for as long as an
// object it made is alive.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "daekit/abi.h"

namespace boost::dll {
class shared_library;
}

namespace daekit::loader {

struct Manifest {
  dk_kind kind = DK_KIND_SOLVER;
  std::string name, version, description, build_id, entry;
  std::uint32_t abi_minor = 0;
};

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The shared library of one plugin file, opened (dlopen) the first time one of its
// plugins is instantiated, and kept open while any handle to it lives.
class Library {
 public:
  // `manifests`: what was read from the file, checked against the loaded library.
  Library(std::filesystem::path file, std::vector<Manifest> manifests);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  // Opens the file once and checks that the loaded manifests are the ones read from
  // the file; throws LoadError.
  boost::dll::shared_library& open();

 private:
  std::filesystem::path file_;
  std::vector<Manifest> manifests_;
  std::unique_ptr<boost::dll::shared_library> library_;
};

struct Plugin {
  Manifest manifest;
  std::filesystem::path file;
  std::shared_ptr<Library> library;
};

// A file that is not a usable plugin, and why.
struct Refusal {
  std::filesystem::path file;
  std::string reason;
};

// Reads and checks the manifests of one file without loading it: the ABI major
// from the exported symbol names (ELF section "daekit"), then each manifest's
// fields from the file's data. Throws LoadError saying what is wrong.
std::vector<Plugin> read_plugin_file(const std::filesystem::path& file);

const char* kind_name(dk_kind kind);

class Registry {
 public:
  // A file named explicitly (--plugin): a refusal is an error the host reports.
  void add_file(const std::filesystem::path& file);
  // Every *.so directly in the folder; refusals are kept for warnings. Missing folders
  // are ignored; an unreadable folder or entry is a refusal of its own.
  void add_directory(const std::filesystem::path& dir);

  const std::vector<Plugin>& plugins() const { return plugins_; }
  const std::vector<Refusal>& refusals() const { return refusals_; }
  const std::vector<Refusal>& explicit_refusals() const { return explicit_refusals_; }
  // "plugin name 'x' is provided by both A and B", one per clash.
  std::vector<std::string> clashes() const;

  // nullptr if unknown; throws LoadError if the name is provided twice.
  const Plugin* find(const std::string& name) const;
  // The names of that kind, for "unknown name" messages.
  std::vector<std::string> names(dk_kind kind) const;

 private:
  // Loads a file unless it was seen before (by canonical path); a refusal goes to `refusals`.
  void add_once(const std::filesystem::path& file, std::vector<Refusal>& refusals);
  std::vector<Plugin> plugins_;
  std::vector<Refusal> refusals_, explicit_refusals_;
  std::vector<std::filesystem::path> seen_;
};

// "" when a plugin's description can be used, else the first field that cannot (named),
// so that no NULL or absurd field is ever dereferenced or sized.
std::string invalid_field(const dk_problem_info* info);
std::string invalid_field(const dk_solver_info* info);

// The host's log sink for plugins: warnings to stderr, notes (level 0: a model's own log
// lines) too once show_plugin_notes(true) (`--verbose`).
const dk_host* default_host();
void show_plugin_notes(bool shown);
// The MPI communicator (MPI_Comm_c2f's integer), rank and size that problems created from
// now on may spread their rows over (dk_host::mpi_comm_f): set by a host run under an MPI
// launcher; by default -1, 0, 1 (every problem whole in this process).
void set_problem_ranks(long long comm_f, int rank, int size);

class ProblemInstance {
 public:
  // Throws LoadError with the plugin's message (e.g. an unknown parameter).
  ProblemInstance(const Plugin& plugin, const std::map<std::string, std::string>& params);
  // A problem made in this process (not by a plugin): takes ownership of `problem`, whose
  // destroy is called with the instance; `origin` names it in messages.
  ProblemInstance(dk_problem problem, const std::string& origin);
  ~ProblemInstance();
  ProblemInstance(const ProblemInstance&) = delete;
  ProblemInstance& operator=(const ProblemInstance&) = delete;

  const dk_problem& handle() const { return problem_; }
  const dk_problem_info& info() const { return *info_; }
  const Plugin& plugin() const { return plugin_; }

  // y0 and (if the problem knows it) yp0; throws LoadError on failure.
  void initial_values(std::vector<double>& y0, std::vector<double>& yp0) const;
  bool reference(std::vector<double>& yref) const;
  // ABI 1.2: the exact solution at any t, for problems that give one (DK_PROBLEM_REFERENCE_AT).
  bool has_reference_at() const;
  bool reference_at(double t, std::vector<double>& yref) const;
  // ABI 1.2: variables besides y the problem computes at a point (an FMU's outputs and
  // locals); 0 for plugins without them.
  std::size_t output_count() const;
  std::string output_name(std::size_t k) const;
  // The outputs `which` (indices below output_count()) at (t, y) into values; false with
  // the problem's message in *why when it failed or gave a value that is not finite.
  bool outputs(double t, const double* y, const std::vector<std::uint32_t>& which, double* values,
               std::string* why) const;
  // ABI 1.3: the real parameters (0 for older plugins), their names and nominal values,
  // and new values for all of them (LoadError with the problem's message when refused).
  std::size_t parameter_count() const;
  std::string parameter_name(std::size_t i) const;
  double nominal_parameter(std::size_t i) const;
  void set_parameters(const std::vector<double>& p) const;
  // The values the problem uses now: nominal, or as given at creation or set since.
  const std::vector<double>& parameters() const { return p_; }
  // The stored reference (info().has_reference) holds for the nominal real parameters only:
  // false once any was set away from its nominal value (reference() then gives none).
  bool has_stored_reference() const;

 private:
  // Checks the table and the description of problem_; throws LoadError.
  void adopt();
  Plugin plugin_;  // holds the library (none for a problem made in this process)
  mutable bool at_nominal_ = true;  // every real parameter at its nominal value
  mutable std::vector<double> p_;   // the real parameters' present values
  dk_problem problem_{};
  const dk_problem_info* info_ = nullptr;
};

class SolverInstance {
 public:
  explicit SolverInstance(const Plugin& plugin);
  ~SolverInstance();
  SolverInstance(const SolverInstance&) = delete;
  SolverInstance& operator=(const SolverInstance&) = delete;

  const dk_solver_info& info() const { return *info_; }
  const Plugin& plugin() const { return plugin_; }
  std::int32_t solve(const ProblemInstance& problem, const dk_solve_options& options, const dk_output_sink& sink,
                     dk_result& result) const;
  // The same with a problem seen through a wrapper of the caller's (api::InterruptibleProblem).
  std::int32_t solve(const dk_problem& problem, const dk_solve_options& options, const dk_output_sink& sink,
                     dk_result& result) const;
  // ABI 1.2: whether the solver keeps its dense output when asked (DK_SOLVER_KEEP_DENSE).
  bool keeps_dense() const;
  // y(t) from the last solve's kept dense output; false outside its span or when none was kept.
  bool dense(double t, double* y) const;

 private:
  Plugin plugin_;
  dk_solver solver_{};
  const dk_solver_info* info_ = nullptr;
};

}  // namespace daekit::loader
