#include "daekit/loader/registry.hpp"

#include <cmath>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cstdio>
#include <cctype>
#include <fstream>
#include <cstring>
#include <cerrno>
#include <set>
#include <sstream>

#include "elf_manifest.hpp"

namespace daekit::loader {
namespace fs = std::filesystem;

namespace {

struct SymbolName {
  unsigned major = 0;
  std::string name;
};

// "daekit_v<major>_manifest_<name>", read by hand: std::regex draws false
// -Wmaybe-uninitialized warnings from GCC 12 in sanitizer builds.
bool parse_manifest_symbol(const std::string& symbol, SymbolName* out) {
  const std::string prefix = "daekit_v", middle = "_manifest_";
  if (symbol.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size(), digits = i;
  while (digits < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[digits]))) ++digits;
  if (digits == i || symbol.compare(digits, middle.size(), middle) != 0) return false;
  const std::string name = symbol.substr(digits + middle.size());
  if (name.empty()) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  out->major = static_cast<unsigned>(std::stoul(symbol.substr(i, digits - i)));
  out->name = name;
  return true;
}

bool is_manifest_symbol(const std::string& symbol) {
  SymbolName ignored;
  return parse_manifest_symbol(symbol, &ignored);
}

std::string text(const char* s) { return s ? std::string(s) : std::string(); }

bool plugin_notes_shown = false;

void host_log(void*, std::int32_t level, const char* message) {
  if (level <= 0 && !plugin_notes_shown) return;
  std::fprintf(stderr, "daekit: %s: %s\n", level > 0 ? "warning" : "note", message ? message : "");
}

// A plugin written against the raw C ABI may let a C++ exception escape one of its
// functions; the host treats that as the plugin failing, named, never as its own end.
template <class Call>
auto call_plugin(const Plugin& plugin, const char* what, Call&& call) {
  try {
    return call();
  } catch (...) {
    throw LoadError(std::string(plugin.manifest.kind == DK_KIND_SOLVER ? "solver" : "problem") + " '" +
                    plugin.manifest.name + "' (" + plugin.file.string() + ") let an exception escape its " + what);
  }
}

// Destructors cannot fail: an exception escaping a plugin's destroy is a warning.
void destroy_quietly(const Plugin& plugin, void (*destroy)(void*), void* self) {
  if (!destroy) return;
  try {
    destroy(self);
  } catch (...) {
    std::fprintf(stderr, "daekit: warning: %s '%s' let an exception escape its destroy function\n",
                 plugin.manifest.kind == DK_KIND_SOLVER ? "solver" : "problem", plugin.manifest.name.c_str());
  }
}

}  // namespace

const char* kind_name(dk_kind kind) { return kind == DK_KIND_SOLVER ? "solver" : "problem"; }

void show_plugin_notes(bool shown) { plugin_notes_shown = shown; }

namespace {
dk_host& host_services() {
  static dk_host host = {sizeof(dk_host), nullptr, &host_log, -1, 0, 1};
  return host;
}
}  // namespace

const dk_host* default_host() { return &host_services(); }

void set_problem_ranks(long long comm_f, int rank, int size) {
  dk_host& host = host_services();
  host.mpi_comm_f = comm_f;
  host.mpi_rank = rank;
  host.mpi_size = size;
}

std::vector<Plugin> read_plugin_file(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw LoadError(ec ? "cannot be reached: " + ec.message() : "no such file");
  if (!fs::is_regular_file(file, ec)) throw LoadError("not a regular file");

  // 0. What kind of file it is, in words.
  {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw LoadError(std::string("cannot be read: ") + std::strerror(errno));
    char magic[4] = {};
    in.read(magic, sizeof magic);
    if (in.gcount() == 0) throw LoadError("empty file");
    if (in.gcount() < 4 || std::memcmp(magic, "\x7f" "ELF", 4) != 0) throw LoadError("not an ELF file (not a shared library)");
  }

  // 1. From the file alone: the exported manifests, and for which ABI. Nothing of the
  //    plugin runs, so a plugin whose constructors crash harms only a command that uses it.
  std::vector<elf::FileManifest> found;
  try {
    found = elf::read_manifests(file, is_manifest_symbol, DK_SECTION_NAME);
  } catch (const elf::Unreadable& e) {
    throw LoadError(std::string("a truncated or damaged ELF file (") + e.what() + ")");
  }
  std::vector<std::pair<SymbolName, const elf::FileManifest*>> manifests;
  for (const auto& m : found) {
    SymbolName sn;
    if (parse_manifest_symbol(m.symbol, &sn)) manifests.emplace_back(sn, &m);
  }
  if (manifests.empty())
    throw LoadError("not a daekit plugin: it exports no manifest in the '" DK_SECTION_NAME "' section");
  for (const auto& [sn, m] : manifests)
    if (sn.major != DK_ABI_MAJOR) {
      std::ostringstream msg;
      msg << "plugin '" << sn.name << "' was built for plugin ABI " << sn.major << ", but this daekit uses ABI "
          << DK_ABI_MAJOR << "; rebuild it against this daekit's SDK (find_package(daekit))";
      throw LoadError(msg.str());
    }

  // 2. Each manifest's data, checked before anything is called.
  std::vector<Plugin> out;
  for (const auto& [sn, m] : manifests) {
    const std::string alias = m->symbol;
    std::ostringstream why;
    if (m->magic != DK_ABI_MAGIC) {
      why << "manifest of '" << sn.name << "' has a bad magic number 0x" << std::hex << m->magic
          << " (expected 0x" << DK_ABI_MAGIC << "): not a daekit manifest";
    } else if (m->abi_major != DK_ABI_MAJOR) {
      why << "manifest of '" << sn.name << "' says plugin ABI " << m->abi_major << ", but this daekit uses ABI "
          << DK_ABI_MAJOR << "; rebuild it against this daekit's SDK";
    } else if (m->struct_size < sizeof(dk_manifest)) {
      why << "manifest of '" << sn.name << "' is " << m->struct_size << " bytes, smaller than ABI "
          << DK_ABI_MAJOR << "'s " << sizeof(dk_manifest);
    } else if (m->kind != DK_KIND_SOLVER && m->kind != DK_KIND_PROBLEM) {
      why << "manifest of '" << sn.name << "' has an unknown kind " << m->kind;
    } else if (m->name != sn.name) {
      why << "manifest name '" << m->name << "' does not match its symbol '" << alias << "'";
    } else if (!m->entry_exported) {
      why << "plugin '" << sn.name << "' names a factory '" << m->entry << "' that it does not export";
    }
    if (!why.str().empty()) throw LoadError(why.str());
    Plugin p;
    p.manifest.kind = static_cast<dk_kind>(m->kind);
    p.manifest.name = m->name;
    p.manifest.version = m->version;
    p.manifest.description = m->description;
    p.manifest.build_id = m->build_id;
    p.manifest.entry = m->entry;
    p.manifest.abi_minor = m->abi_minor;
    p.file = file;
    out.push_back(std::move(p));
  }
  std::vector<Manifest> read;
  for (const auto& p : out) read.push_back(p.manifest);
  auto library = std::make_shared<Library>(file, std::move(read));
  for (auto& p : out) p.library = library;
  return out;
}

Library::Library(fs::path file, std::vector<Manifest> manifests)
    : file_(std::move(file)), manifests_(std::move(manifests)) {}
Library::~Library() = default;

boost::dll::shared_library& Library::open() {
  if (library_) return *library_;
  auto lib = std::make_unique<boost::dll::shared_library>();
  try {
    // Local symbol binding, so plugins cannot capture each other's symbols.
    lib->load(file_.string(), boost::dll::load_mode::rtld_local | boost::dll::load_mode::rtld_now);
  } catch (const std::exception& e) {
    throw LoadError(file_.string() + " cannot be loaded: " + e.what());
  }
  // What was read from the file is what the loaded library holds: the file has not been
  // swapped, and the reading of its data was right.
  for (const auto& m : manifests_) {
    const std::string symbol = "daekit_v" + std::to_string(DK_ABI_MAJOR) + "_manifest_" + m.name;
    if (!lib->has(symbol)) throw LoadError(file_.string() + " changed after it was read (" + symbol + " is gone)");
    const dk_manifest& man = lib->get_alias<const dk_manifest>(symbol);
    if (man.magic != DK_ABI_MAGIC || text(man.name) != m.name || text(man.entry) != m.entry || !lib->has(m.entry))
      throw LoadError(file_.string() + ": the loaded manifest " + symbol + " differs from the file's");
  }
  library_ = std::move(lib);
  return *library_;
}

void Registry::add_once(const fs::path& file, std::vector<Refusal>& refusals) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(file, ec);
  if (ec) canonical = file;
  if (std::find(seen_.begin(), seen_.end(), canonical) != seen_.end()) return;
  seen_.push_back(canonical);
  try {
    for (auto& p : read_plugin_file(file)) plugins_.push_back(std::move(p));
  } catch (const LoadError& e) {
    refusals.push_back({file, e.what()});
  }
}

void Registry::add_file(const fs::path& file) { add_once(file, explicit_refusals_); }

void Registry::add_directory(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    // A folder that is there but cannot be looked into is worth a word; a missing one is not.
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
      refusals_.push_back({dir, "cannot be searched for plugins: " + ec.message()});
    return;
  }
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    refusals_.push_back({dir, "cannot be searched for plugins: " + ec.message()});
    return;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) {
      refusals_.push_back({dir, "could not be read to its end: " + ec.message()});
      break;
    }
    const auto& entry = *it;
    if (entry.path().extension() != ".so") continue;
    std::error_code kind_ec;
    const bool regular = entry.is_regular_file(kind_ec);
    if (kind_ec)  // a dangling link, a link loop, no permission: say so rather than skip silently
      refusals_.push_back({entry.path(), kind_ec.message()});
    else if (regular)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) add_once(f, refusals_);
}

std::vector<std::string> Registry::clashes() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < plugins_.size(); ++i)
    for (std::size_t j = i + 1; j < plugins_.size(); ++j)
      if (plugins_[i].manifest.name == plugins_[j].manifest.name)
        out.push_back("plugin name '" + plugins_[i].manifest.name + "' is provided by both " +
                      plugins_[i].file.string() + " and " + plugins_[j].file.string() +
                      "; names must be unique: remove or move one of them");
  return out;
}

const Plugin* Registry::find(const std::string& name) const {
  const Plugin* hit = nullptr;
  for (const auto& p : plugins_) {
    if (p.manifest.name != name) continue;
    if (hit)
      throw LoadError("plugin name '" + name + "' is provided by both " + hit->file.string() + " and " +
                      p.file.string() + "; names must be unique: remove or move one of them");
    hit = &p;
  }
  return hit;
}

std::vector<std::string> Registry::names(dk_kind kind) const {
  std::vector<std::string> out;
  for (const auto& p : plugins_)
    if (p.manifest.kind == kind) out.push_back(p.manifest.name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// Largest problem size the host accepts: beyond it even the n-vectors of one solve do not
// fit in memory, so a larger n is a broken description, not a big model.
constexpr std::size_t max_problem_size = std::size_t{1} << 31;

}  // namespace

namespace {

// `ascending`: rows strictly increasing within each column, as the Jacobian's values are
// read straight into a sorted sparse matrix (the SDK sorts its authors' patterns).
// A CSC pattern of `rows` x `columns` (rows = columns = n for the Jacobian and M).
std::string invalid_pattern(const dk_sparsity& p, std::size_t rows, std::size_t columns, const std::string& what,
                            bool ascending) {
  if (!p.col_ptr || !p.row_idx) return "the " + what + "'s arrays are NULL";
  if (p.col_ptr[0] != 0 || static_cast<std::size_t>(p.col_ptr[columns]) != p.nnz)
    return "the " + what + "'s col_ptr does not run from 0 to nnz";
  for (std::size_t j = 0; j < columns; ++j)
    if (p.col_ptr[j + 1] < p.col_ptr[j]) return "the " + what + "'s col_ptr decreases";
  for (std::size_t k = 0; k < p.nnz; ++k)
    if (p.row_idx[k] < 0 || static_cast<std::size_t>(p.row_idx[k]) >= rows)
      return "the " + what + " has row index " + std::to_string(p.row_idx[k]) + " outside 0 .. n-1";
  for (std::size_t j = 0; ascending && j < columns; ++j)
    for (auto k = p.col_ptr[j] + 1; k < p.col_ptr[j + 1]; ++k)
      if (p.row_idx[k] <= p.row_idx[k - 1])
        return "the " + what + "'s rows in column " + std::to_string(j) + " are not strictly ascending (row " +
               std::to_string(p.row_idx[k]) + " after " + std::to_string(p.row_idx[k - 1]) + ")";
  return "";
}

// Event functions beyond this many are a broken description (each is evaluated per step).
constexpr std::size_t max_root_functions = std::size_t{1} << 20;
// Outputs beyond this many are a broken description (an FMU of 10^6 variables stays below).
constexpr std::size_t max_outputs = std::size_t{1} << 26;

// Real parameters beyond this many are a broken description.
constexpr std::size_t max_real_parameters = std::size_t{1} << 20;

// The real parameters (ABI 1.3), when the problem's struct holds them: named, distinct from
// each other and from the string parameters, finite nominal values, positive scales.
std::string invalid_parameters(const dk_problem_info* info) {
  if (!DK_HAS_FIELD(info, dk_problem_info, dfdp_pattern) || info->np == 0) return "";
  if (info->np > max_real_parameters) return "np = " + std::to_string(info->np) + " is absurd";
  if (!info->p_names || !info->p_nominal) return "p_names or p_nominal is NULL for " + std::to_string(info->np) + " parameters";
  std::set<std::string> names;
  for (std::size_t i = 0; i < info->nparams; ++i) names.insert(info->params[i].name);
  for (std::size_t i = 0; i < info->np; ++i) {
    const std::string at = "real parameter " + std::to_string(i);
    if (!info->p_names[i] || !info->p_names[i][0]) return at + " has no name";
    if (!names.insert(info->p_names[i]).second)
      return "the parameter name '" + std::string(info->p_names[i]) + "' is given twice";
    if (!std::isfinite(info->p_nominal[i])) return at + " ('" + info->p_names[i] + "') has a non-finite nominal value";
    if (info->p_scale && !(info->p_scale[i] > 0.0 && std::isfinite(info->p_scale[i])) && info->p_scale[i] != 0.0)
      return at + " ('" + info->p_names[i] + "') has a scale that is not a finite positive number";
  }
  if (info->dfdp_pattern.nnz > 0)
    return invalid_pattern(info->dfdp_pattern, info->n, info->np, "df/dp pattern", false);
  return "";
}

// The rows this rank owns (ABI 1.3 part E), when the problem declares a distribution:
// inside 0 .. n-1, ghosts ascending and outside the owned block, the local pattern's
// columns inside the local vector, and a mass a distributed solver can take. Whether the
// ranks' blocks cover 0 .. n-1 only the ranks together know: the solver checks that.
std::string invalid_distribution(const dk_problem_info* info) {
  if (!dk_distribution_of(info)) return "";
  const dk_distribution& d = *info->distribution;
  // Part E's distribution ends where local_rows (part G) begins.
  if (d.struct_size < offsetof(dk_distribution, local_rows))
    return "the distribution's struct_size " + std::to_string(d.struct_size) + " is too small";
  if (d.n_local == 0 || d.n_local > info->n || d.first_row > info->n - d.n_local)
    return "the distribution owns rows " + std::to_string(d.first_row) + " .. " + std::to_string(d.first_row + d.n_local) +
           " (exclusive), not a non-empty block of 0 .. " + std::to_string(info->n);
  if (d.nghost > info->n - d.n_local) return "the distribution has " + std::to_string(d.nghost) + " ghosts, more than the rows of other ranks";
  if (d.nghost > 0 && !d.ghost_rows) return "the distribution's ghost_rows is NULL";
  for (std::size_t g = 0; g < d.nghost; ++g) {
    const std::int64_t row = d.ghost_rows[g];
    if (row < 0 || static_cast<std::size_t>(row) >= info->n || (g > 0 && row <= d.ghost_rows[g - 1]))
      return "the distribution's ghost_rows are not strictly ascending rows of 0 .. n-1 (at entry " + std::to_string(g) + ")";
    if (static_cast<std::size_t>(row) >= d.first_row && static_cast<std::size_t>(row) < d.first_row + d.n_local)
      return "ghost row " + std::to_string(row) + " is one of the rank's own rows";
  }
  if (d.jac_nnz > 0) {
    if (!d.jac_row_ptr || !d.jac_col_idx) return "the distribution's Jacobian pattern arrays are NULL";
    if (d.jac_row_ptr[0] != 0 || static_cast<std::size_t>(d.jac_row_ptr[d.n_local]) != d.jac_nnz)
      return "the distribution's jac_row_ptr does not run from 0 to jac_nnz";
    const std::size_t columns = d.n_local + d.nghost;
    for (std::size_t i = 0; i < d.n_local; ++i) {
      if (d.jac_row_ptr[i + 1] < d.jac_row_ptr[i]) return "the distribution's jac_row_ptr decreases";
      for (auto k = d.jac_row_ptr[i]; k < d.jac_row_ptr[i + 1]; ++k)
        if (d.jac_col_idx[k] < 0 || static_cast<std::size_t>(d.jac_col_idx[k]) >= columns ||
            (k > d.jac_row_ptr[i] && d.jac_col_idx[k] <= d.jac_col_idx[k - 1]))
          return "the distribution's local row " + std::to_string(i) +
                 " has columns outside 0 .. n_local + nghost - 1 or not strictly ascending";
    }
  }
  if (info->form != DK_FORM_MASS_MATRIX || (info->mass_kind != DK_MASS_IDENTITY && info->mass_kind != DK_MASS_CONSTANT))
    return "a distributed problem has the mass-matrix form with M = I or a constant diagonal M";
  if (dk_rows_held(info) < info->n) {
    // Local rows (part G): no rank describes another's rows.
    if (info->component_names) return "a problem with local rows has component_names (NULL expected)";
    if (DK_HAS_FIELD(info, dk_problem_info, constraints) && info->constraints)
      return "a problem with local rows has constraints (NULL expected)";
    if (info->flags & DK_PROBLEM_SPARSE_JACOBIAN)
      return "a problem with local rows declares a global Jacobian pattern (the distribution's local one serves)";
  }
  return "";
}

// The fields ABI 1.2 added, when the problem's struct holds them.
std::string invalid_fields_1_2(const dk_problem_info* info) {
  if (!DK_HAS_FIELD(info, dk_problem_info, constraints)) return "";
  if ((info->flags & DK_PROBLEM_REFERENCE_AT) && !info->reference_source)
    return "reference_source is NULL for a problem with reference_at";
  if (info->mass_storage > DK_MASS_STORAGE_SPARSE)
    return "mass_storage " + std::to_string(info->mass_storage) + " is unknown";
  if (info->mass_storage == DK_MASS_STORAGE_SPARSE)
    if (std::string bad = invalid_pattern(info->mass_pattern, info->n, info->n, "mass pattern", false); !bad.empty()) return bad;
  if (info->nroots > max_root_functions) return "nroots = " + std::to_string(info->nroots) + " is absurd";
  for (std::size_t i = 0; info->root_direction && i < info->nroots; ++i)
    if (info->root_direction[i] < -1 || info->root_direction[i] > 1)
      return "root_direction[" + std::to_string(i) + "] = " + std::to_string(info->root_direction[i]) +
             " (-1, 0 or 1 expected)";
  for (std::size_t i = 0; info->root_names && i < info->nroots; ++i)
    if (!info->root_names[i]) return "root_names[" + std::to_string(i) + "] is NULL";
  for (std::size_t i = 0; info->constraints && i < info->n; ++i)
    if (info->constraints[i] < -2 || info->constraints[i] > 2)
      return "constraints[" + std::to_string(i) + "] = " + std::to_string(info->constraints[i]) +
             " (-2 .. 2, IDASetConstraints' codes, expected)";
  if (DK_HAS_FIELD(info, dk_problem_info, output_names) && info->noutputs > 0) {
    if (info->noutputs > max_outputs) return "noutputs = " + std::to_string(info->noutputs) + " is absurd";
    if (!info->output_names) return "output_names is NULL for " + std::to_string(info->noutputs) + " outputs";
    for (std::size_t k = 0; k < info->noutputs; ++k)
      if (!info->output_names[k]) return "output_names[" + std::to_string(k) + "] is NULL";
  }
  if (DK_HAS_FIELD(info, dk_problem_info, root_time_scale))
    for (std::size_t i = 0; info->root_time_scale && i < info->nroots; ++i)
      if (!(info->root_time_scale[i] >= 0.0) || !std::isfinite(info->root_time_scale[i]))
        return "root_time_scale[" + std::to_string(i) + "] = " + std::to_string(info->root_time_scale[i]) +
               " (finite and >= 0 expected)";
  if (DK_HAS_FIELD(info, dk_problem_info, output_interval) &&
      (!(info->output_interval >= 0.0) || !std::isfinite(info->output_interval)))
    return "output_interval = " + std::to_string(info->output_interval) + " (finite and >= 0 expected)";
  return invalid_parameters(info);
}

}  // namespace

std::string invalid_field(const dk_problem_info* info) {
  if (!info) return "no description (info returned NULL)";
  if (info->struct_size < DK_MIN_SIZE_PROBLEM_INFO) return "struct_size " + std::to_string(info->struct_size) + " is too small";
  if (!info->name) return "name is NULL";
  if (info->n == 0) return "n is 0";
  if (info->n > max_problem_size) return "n = " + std::to_string(info->n) + " is beyond any memory";
  if (!info->index) return "the index array is NULL";
  if (!info->differential) return "the differential array is NULL";
  // Before any per-row array is read: with local rows they have the owned rows' entries.
  if (std::string bad = invalid_distribution(info); !bad.empty()) return bad;
  const std::size_t rows = dk_rows_held(info);
  for (std::size_t i = 0; i < rows; ++i)
    if (info->index[i] < 1 || info->index[i] > (rows < info->n ? 1 : 3))
      return "index[" + std::to_string(i) + "] = " + std::to_string(info->index[i]) +
             (rows < info->n ? " (1 expected: a problem with local rows is of index 1 at most)" : " (1, 2 or 3 expected)");
  if (info->form > DK_FORM_RESIDUAL_ONLY) return "form " + std::to_string(info->form) + " is unknown";
  if (info->mass_kind > DK_MASS_STATE_DEPENDENT) return "mass_kind " + std::to_string(info->mass_kind) + " is unknown";
  if (info->nparams > 0 && !info->params) return "params is NULL for " + std::to_string(info->nparams) + " parameters";
  for (std::size_t i = 0; i < info->nparams; ++i)
    if (!info->params[i].name) return "parameter " + std::to_string(i) + " has no name";
  if (info->ntstops > 0 && !info->tstops) return "tstops is NULL for " + std::to_string(info->ntstops) + " breakpoints";
  if (info->has_reference && !info->reference_source) return "reference_source is NULL";
  if (info->nparams > 0 && !info->param_values) return "param_values is NULL";
  for (std::size_t i = 0; info->component_names && i < info->n; ++i)
    if (!info->component_names[i]) return "component_names[" + std::to_string(i) + "] is NULL";
  if (info->flags & DK_PROBLEM_SPARSE_JACOBIAN)
    if (std::string bad = invalid_pattern(info->jac_pattern, info->n, info->n, "sparsity pattern", true); !bad.empty()) return bad;
  return invalid_fields_1_2(info);
}

std::string invalid_field(const dk_solver_info* info) {
  if (!info) return "no description (info returned NULL)";
  if (info->struct_size < sizeof(dk_solver_info)) return "struct_size " + std::to_string(info->struct_size) + " is too small";
  if (!info->name) return "name is NULL";
  if (info->max_mass_kind > DK_MASS_STATE_DEPENDENT) return "max_mass_kind " + std::to_string(info->max_mass_kind) + " is unknown";
  if (info->max_dae_index < 0 || info->max_dae_index > 3) return "max_dae_index " + std::to_string(info->max_dae_index) + " lies outside 0 .. 3";
  if (info->noptions > 0 && !info->options) return "options is NULL for " + std::to_string(info->noptions) + " options";
  for (std::size_t i = 0; i < info->noptions; ++i) {
    if (!info->options[i].key) return "option " + std::to_string(i) + " has no key";
    if (!info->options[i].type) return "option '" + std::string(info->options[i].key) + "' has no type";
  }
  return "";
}

ProblemInstance::ProblemInstance(const Plugin& plugin, const std::map<std::string, std::string>& params)
    : plugin_(plugin) {
  if (plugin.manifest.kind != DK_KIND_PROBLEM) throw LoadError("'" + plugin.manifest.name + "' is not a problem");
  auto entry = plugin.library->open().get_alias<std::int32_t(const dk_host*, const dk_keyval*, std::size_t, dk_problem*,
                                                        char*, std::size_t)>(plugin.manifest.entry);
  std::vector<dk_keyval> kv;
  for (const auto& [k, v] : params) kv.push_back({k.c_str(), v.c_str()});
  char err[1024] = {0};
  if (call_plugin(plugin, "factory",
                  [&] { return entry(default_host(), kv.empty() ? nullptr : kv.data(), kv.size(), &problem_, err, sizeof err); }) != 0 ||
      !problem_.vtbl)
    throw LoadError("problem '" + plugin.manifest.name + "' (" + plugin.file.string() +
                    ") could not be created: " + (err[0] ? err : "no message"));
  adopt();
  // A real parameter given at creation away from its nominal value: the stored reference
  // (computed at the nominal values) no longer describes this problem.
  for (std::size_t i = 0; i < parameter_count(); ++i)
    if (auto it = params.find(info_->p_names[i]); it != params.end()) {
      p_[i] = std::strtod(it->second.c_str(), nullptr);
      at_nominal_ = at_nominal_ && p_[i] == info_->p_nominal[i];
    }
}

ProblemInstance::ProblemInstance(dk_problem problem, const std::string& origin) : problem_(problem) {
  plugin_.manifest.kind = DK_KIND_PROBLEM;
  plugin_.manifest.name = origin;
  plugin_.file = "(made in this process)";
  if (!problem_.vtbl) throw LoadError("problem '" + origin + "' has no function table");
  try {
    adopt();
  } catch (const LoadError&) {
    // Owned from the start: refused, it is handed back (adopt nulls the table it already did).
    if (problem_.vtbl && problem_.vtbl->destroy) problem_.vtbl->destroy(problem_.self);
    throw;
  }
}

void ProblemInstance::adopt() {
  const Plugin& plugin = plugin_;
  if (problem_.vtbl->struct_size < offsetof(dk_problem_vtbl, last_error) + sizeof(void*) || !problem_.vtbl->info ||
      !problem_.vtbl->destroy || !problem_.vtbl->initial_values) {
    throw LoadError("problem '" + plugin.manifest.name + "' returned an incomplete function table");
  }
  try {
    info_ = call_plugin(plugin, "info function", [&] { return problem_.vtbl->info(problem_.self); });
  } catch (const LoadError&) {
    problem_.vtbl = nullptr;  // a plugin that throws there is not trusted to destroy either
    throw;
  }
  const std::string bad = invalid_field(info_);
  if (!bad.empty()) {
    // Nothing else of the description is used; the object is handed back to its plugin.
    problem_.vtbl->destroy(problem_.self);
    problem_.vtbl = nullptr;
    throw LoadError("problem '" + plugin.manifest.name + "' (" + plugin.file.string() +
                    ") returned an invalid description: " + bad);
  }
  if (const std::size_t outputs = output_count();
      outputs > 0 && !(DK_HAS_FIELD(problem_.vtbl, dk_problem_vtbl, outputs) && problem_.vtbl->outputs)) {
    // The description dies with the object: everything the message needs is read first.
    problem_.vtbl->destroy(problem_.self);
    problem_.vtbl = nullptr;
    info_ = nullptr;
    throw LoadError("problem '" + plugin.manifest.name + "' (" + plugin.file.string() +
                    ") returned an invalid description: noutputs = " + std::to_string(outputs) +
                    " but no outputs function");
  }
  if (const std::size_t np = parameter_count();
      np > 0 && !(DK_HAS_FIELD(problem_.vtbl, dk_problem_vtbl, set_p) && problem_.vtbl->set_p)) {
    problem_.vtbl->destroy(problem_.self);
    problem_.vtbl = nullptr;
    info_ = nullptr;
    throw LoadError("problem '" + plugin.manifest.name + "' (" + plugin.file.string() +
                    ") returned an invalid description: np = " + std::to_string(np) + " but no set_p function");
  }
  if (dk_distribution_of(info_)) {
    const dk_problem_vtbl* t = problem_.vtbl;
    const bool local = DK_HAS_FIELD(t, dk_problem_vtbl, mass_diagonal_local) && t->rhs_local &&
                       (info_->mass_kind == DK_MASS_IDENTITY || t->mass_diagonal_local);
    if (!local) {
      problem_.vtbl->destroy(problem_.self);
      problem_.vtbl = nullptr;
      info_ = nullptr;
      throw LoadError("problem '" + plugin.manifest.name + "' (" + plugin.file.string() +
                      ") returned an invalid description: a distribution without rhs_local (or, with a constant "
                      "diagonal M, without mass_diagonal_local)");
    }
  }
  // p_nominal is read only where the description has it (a 1.2 problem's ends before).
  if (const std::size_t np = parameter_count(); np > 0) p_.assign(info_->p_nominal, info_->p_nominal + np);
}

std::size_t ProblemInstance::parameter_count() const {
  return DK_HAS_FIELD(info_, dk_problem_info, dfdp_pattern) ? info_->np : 0;
}

std::string ProblemInstance::parameter_name(std::size_t i) const { return info_->p_names[i]; }

double ProblemInstance::nominal_parameter(std::size_t i) const { return info_->p_nominal[i]; }

void ProblemInstance::set_parameters(const std::vector<double>& p) const {
  if (p.size() != parameter_count())
    throw LoadError("problem '" + plugin_.manifest.name + "' has " + std::to_string(parameter_count()) +
                    " real parameters, " + std::to_string(p.size()) + " values given");
  if (call_plugin(plugin_, "set_p function", [&] { return problem_.vtbl->set_p(problem_.self, p.data()); }) !=
      DK_EVAL_OK) {
    char err[512] = {0};
    if (problem_.vtbl->last_error)
      call_plugin(plugin_, "last_error function", [&] { return problem_.vtbl->last_error(problem_.self, err, sizeof err); });
    throw LoadError("problem '" + plugin_.manifest.name + "' refused the parameters: " + err);
  }
  at_nominal_ = std::equal(p.begin(), p.end(), info_->p_nominal);
  p_ = p;
}

bool ProblemInstance::has_stored_reference() const { return info_->has_reference && at_nominal_; }

ProblemInstance::~ProblemInstance() {
  if (problem_.vtbl) destroy_quietly(plugin_, problem_.vtbl->destroy, problem_.self);
}

void ProblemInstance::initial_values(std::vector<double>& y0, std::vector<double>& yp0) const {
  y0.assign(dk_rows_held(info_), 0.0);
  yp0.assign(dk_rows_held(info_), 0.0);
  if (call_plugin(plugin_, "initial_values function",
                  [&] { return problem_.vtbl->initial_values(problem_.self, y0.data(), yp0.data()); }) != DK_EVAL_OK) {
    char err[512] = {0};
    if (problem_.vtbl->last_error)
      call_plugin(plugin_, "last_error function", [&] { return problem_.vtbl->last_error(problem_.self, err, sizeof err); });
    throw LoadError("problem '" + plugin_.manifest.name + "' could not compute its initial values: " + err);
  }
}

bool ProblemInstance::reference(std::vector<double>& yref) const {
  if (!has_stored_reference() || !problem_.vtbl->reference) return false;
  yref.assign(dk_rows_held(info_), 0.0);
  return call_plugin(plugin_, "reference function", [&] { return problem_.vtbl->reference(problem_.self, yref.data()); }) ==
         DK_EVAL_OK;
}

bool ProblemInstance::has_reference_at() const {
  return DK_HAS_FIELD(info_, dk_problem_info, constraints) && (info_->flags & DK_PROBLEM_REFERENCE_AT) &&
         DK_HAS_FIELD(problem_.vtbl, dk_problem_vtbl, step_completed) && problem_.vtbl->reference_at;
}

bool ProblemInstance::reference_at(double t, std::vector<double>& yref) const {
  if (!has_reference_at()) return false;
  yref.assign(dk_rows_held(info_), 0.0);
  if (call_plugin(plugin_, "reference_at function",
                  [&] { return problem_.vtbl->reference_at(problem_.self, t, yref.data()); }) != DK_EVAL_OK)
    return false;
  for (double v : yref)
    if (!std::isfinite(v)) return false;
  return true;
}

std::size_t ProblemInstance::output_count() const {
  return DK_HAS_FIELD(info_, dk_problem_info, output_names) ? info_->noutputs : 0;
}

std::string ProblemInstance::output_name(std::size_t k) const {
  return k < output_count() ? info_->output_names[k] : "";
}

bool ProblemInstance::outputs(double t, const double* y, const std::vector<std::uint32_t>& which, double* values,
                              std::string* why) const {
  for (std::uint32_t k : which)
    if (k >= output_count()) throw std::out_of_range("output " + std::to_string(k) + " does not exist");
  const dk_eval e = call_plugin(plugin_, "outputs function", [&] {
    return problem_.vtbl->outputs(problem_.self, t, y, which.size(), which.data(), values);
  });
  if (e == DK_EVAL_OK) {
    for (std::size_t k = 0; k < which.size(); ++k)
      if (!std::isfinite(values[k])) {
        if (why) *why = "output '" + output_name(which[k]) + "' is not finite (" + std::to_string(values[k]) + ")";
        return false;
      }
    return true;
  }
  if (why) {
    char err[1024] = {0};
    if (problem_.vtbl->last_error)
      call_plugin(plugin_, "last_error function", [&] { return problem_.vtbl->last_error(problem_.self, err, sizeof err); });
    *why = err[0] ? err : "the outputs function failed without a message";
  }
  return false;
}

SolverInstance::SolverInstance(const Plugin& plugin) : plugin_(plugin) {
  if (plugin.manifest.kind != DK_KIND_SOLVER) throw LoadError("'" + plugin.manifest.name + "' is not a solver");
  auto entry = plugin.library->open().get_alias<std::int32_t(const dk_host*, dk_solver*, char*, std::size_t)>(
      plugin.manifest.entry);
  char err[1024] = {0};
  if (call_plugin(plugin, "factory", [&] { return entry(default_host(), &solver_, err, sizeof err); }) != 0 ||
      !solver_.vtbl)
    throw LoadError("solver '" + plugin.manifest.name + "' (" + plugin.file.string() +
                    ") could not be created: " + (err[0] ? err : "no message"));
  if (solver_.vtbl->struct_size < DK_MIN_SIZE_SOLVER_VTBL || !solver_.vtbl->info || !solver_.vtbl->solve ||
      !solver_.vtbl->destroy)
    throw LoadError("solver '" + plugin.manifest.name + "' returned an incomplete function table");
  try {
    info_ = call_plugin(plugin, "info function", [&] { return solver_.vtbl->info(solver_.self); });
  } catch (const LoadError&) {
    solver_.vtbl = nullptr;
    throw;
  }
  const std::string bad = invalid_field(info_);
  if (!bad.empty()) {
    solver_.vtbl->destroy(solver_.self);
    solver_.vtbl = nullptr;
    throw LoadError("solver '" + plugin.manifest.name + "' (" + plugin.file.string() +
                    ") returned an invalid description: " + bad);
  }
}

SolverInstance::~SolverInstance() {
  if (solver_.vtbl) destroy_quietly(plugin_, solver_.vtbl->destroy, solver_.self);
}

bool SolverInstance::keeps_dense() const {
  return (info_->flags & DK_SOLVER_KEEP_DENSE) && DK_HAS_FIELD(solver_.vtbl, dk_solver_vtbl, dense) &&
         solver_.vtbl->dense;
}

bool SolverInstance::dense(double t, double* y) const {
  if (!keeps_dense()) return false;
  try {
    return solver_.vtbl->dense(solver_.self, t, y) == 0;
  } catch (...) {
    return false;
  }
}

std::int32_t SolverInstance::solve(const ProblemInstance& problem, const dk_solve_options& options,
                                   const dk_output_sink& sink, dk_result& result) const {
  return solve(problem.handle(), options, sink, result);
}

std::int32_t SolverInstance::solve(const dk_problem& problem, const dk_solve_options& options,
                                   const dk_output_sink& sink, dk_result& result) const {
  result.struct_size = sizeof(dk_result);
  try {
    return solver_.vtbl->solve(solver_.self, &problem, &options, &sink, &result);
  } catch (...) {
    result.status = DK_STATUS_INTERNAL_ERROR;
    std::snprintf(result.message, sizeof result.message, "solver '%s' (%s) let an exception escape its solve function",
                  plugin_.manifest.name.c_str(), plugin_.file.string().c_str());
    return result.status;
  }
}

}  // namespace daekit::loader
