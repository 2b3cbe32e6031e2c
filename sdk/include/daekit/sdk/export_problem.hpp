// Turns a daekit::Problem subclass into the C function table of abi.h.
//
//   class Pendulum : public daekit::Problem { ... };
//   DAEKIT_EXPORT_PROBLEM(Pendulum, pendulum, "1.0.0", "Index-3 pendulum")
//
// The class needs a constructor taking `const daekit::Params&`; a static
// `std::vector<daekit::ParamDesc> parameters()` declares its parameters (without one it
// has none). Every trampoline catches exceptions, so none escapes into the host or a
// solver.
#pragma once

#include <algorithm>
#include <boost/dll/alias.hpp>
#include <cmath>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "daekit/abi.h"
#include "daekit/sdk/closest_names.hpp"
#include "daekit/sdk/data_text.hpp"  // parse_data_text, for problems that read data files
#include "daekit/sdk/manifest.hpp"
#include "daekit/sdk/parameter_differences.hpp"
#include "daekit/sdk/problem.hpp"

namespace daekit::sdk {

inline void copy_message(const std::string& msg, char* buf, std::size_t size) {
  if (!buf || size == 0) return;
  std::size_t len = msg.size() < size - 1 ? msg.size() : size - 1;
  std::memcpy(buf, msg.data(), len);
  buf[len] = '\0';
}

// Runs a plugin factory: 0 on success, else 1 with the exception's text in err.
template <class Make>
std::int32_t guarded_factory(Make&& make, char* err, std::size_t err_size, const char* what) noexcept {
  try {
    make();
    return 0;
  } catch (const std::exception& e) {
    copy_message(e.what(), err, err_size);
  } catch (...) {
    copy_message(std::string("unknown exception while creating the ") + what, err, err_size);
  }
  return 1;
}

// Which optional entries a Problem class overrides, known where the class is
// (DAEKIT_EXPORT_PROBLEM); for a Problem handed over as a base pointer it is not known,
// and every entry counts as provided.
struct MassOverrides {
  bool known = false;
  bool mass = true, mass_diagonal = false;
  bool jacobian_sparse = true;  // values for the declared pattern (else only the pattern)
  template <class Class>
  static MassOverrides of() {
    using Dense = Eval (Problem::*)(double, ConstVector, MatrixView);
    using InVector = Eval (Problem::*)(double, ConstVector, Vector);
    MassOverrides o;
    o.known = true;
    o.mass = !std::is_same_v<decltype(&Class::mass), Dense>;
    o.mass_diagonal = !std::is_same_v<decltype(&Class::mass_diagonal), InVector>;
    o.jacobian_sparse = !std::is_same_v<decltype(&Class::jacobian_sparse), InVector>;
    return o;
  }
};

// Owns the author's Problem and the C view of its info.
class ProblemAdapter {
 public:
  ProblemAdapter(std::unique_ptr<Problem> impl, std::vector<ParamDesc> descs, const Params& params,
                 MassOverrides overrides = {})
      : impl_(std::move(impl)), descs_(std::move(descs)) {
    const ProblemInfo& in = impl_->info();
    const std::size_t n = in.n;
    if (n == 0) throw std::invalid_argument("problem '" + in.name + "' declares n = 0");
    impl_->stored_as_ = resolve_mass_storage(in, overrides);
    adopt_parameters(in);  // before anything evaluates the model: it may read p
    const std::size_t rows = rows_held(in);  // n, or the owned rows of a distribution with local rows
    if (rows < n) check_local_rows(in);
    check_size(in.index, rows, "index");
    check_size(in.differential, rows, "differential");
    check_size(in.component_names, n, "component_names");
    check_size(in.atol_scale, rows, "atol_scale");
    check_size(in.scored, rows, "scored");
    if (!in.reference.empty()) check_size(in.reference, rows, "reference");
    check_size(in.constraints, n, "constraints");
    for (const auto& r : in.roots) {
      root_directions_.push_back(static_cast<std::int8_t>(r.direction));
      root_terminal_.push_back(r.terminal ? 1 : 0);
      root_names_.push_back(r.name.c_str());
      if (!(r.time_scale >= 0.0) || !std::isfinite(r.time_scale))
        throw std::invalid_argument("root function '" + r.name + "': time_scale must be finite and >= 0");
      root_time_scales_.push_back(r.time_scale);
    }

    index_ = in.index.empty() ? std::vector<std::uint8_t>(rows, 1) : in.index;
    scored_ = in.scored.empty() ? std::vector<std::uint8_t>(rows, 1) : in.scored;
    differential_ = in.differential.empty() ? derive_differential() : in.differential;
    adopt_component_names(in);
    check_output_names(in);
    for (const auto& s : in.outputs) output_names_.push_back(s.c_str());
    for (const auto& d : descs_) {
      cdescs_.push_back({d.name.c_str(), d.default_value.c_str(), d.help.c_str()});
      const auto value = params.all().find(d.name);
      values_.push_back(value == params.all().end() ? d.default_value : value->second);  // open_parameters' entry
    }
    for (const auto& v : values_) cvalues_.push_back(v.c_str());

    info_ = dk_problem_info{};
    info_.struct_size = sizeof(dk_problem_info);
    info_.name = in.name.c_str();
    info_.title = in.title.c_str();
    info_.n = n;
    info_.t0 = in.t0;
    info_.tend = in.tend;
    info_.form = static_cast<std::uint32_t>(in.form);
    info_.mass_kind = static_cast<std::uint32_t>(in.mass);
    info_.flags = (in.analytic_jacobian ? DK_PROBLEM_ANALYTIC_JACOBIAN : 0u) |
                  (in.analytic_dfdt ? DK_PROBLEM_ANALYTIC_DFDT : 0u) |
                  (in.autonomous ? DK_PROBLEM_AUTONOMOUS : 0u) |
                  (!in.jac_col_ptr.empty() ? DK_PROBLEM_SPARSE_JACOBIAN : 0u) |
                  (in.consistent_y0 ? DK_PROBLEM_CONSISTENT_Y0 : 0u) |
                  (in.has_yp0 ? DK_PROBLEM_HAS_YP0 : 0u) |
                  (in.analytic_residual_jacobian ? DK_PROBLEM_ANALYTIC_RESIDUAL_JACOBIAN : 0u);
    info_.jac_lower = in.jac_lower;
    info_.jac_upper = in.jac_upper;
    info_.index = index_.data();
    info_.differential = differential_.data();
    info_.component_names = names_.empty() ? nullptr : names_.data();
    info_.nparams = cdescs_.size();
    info_.params = cdescs_.empty() ? nullptr : cdescs_.data();
    info_.param_values = cvalues_.empty() ? nullptr : cvalues_.data();
    info_.rtol_hint = in.rtol_hint;
    info_.atol_scale = in.atol_scale.empty() ? nullptr : in.atol_scale.data();
    info_.ntstops = in.tstops.size();
    info_.tstops = in.tstops.empty() ? nullptr : in.tstops.data();
    if (!(in.output_interval >= 0.0) || !std::isfinite(in.output_interval))
      throw std::invalid_argument("problem '" + in.name + "': output_interval must be finite and >= 0");
    info_.output_interval = in.output_interval;
    info_.has_reference = in.reference.empty() ? 0u : 1u;
    info_.reference_t = in.reference_t;
    info_.scored = scored_.data();
    info_.reference_source = in.reference_source.c_str();
    if (!in.jac_col_ptr.empty()) {
      if (in.jac_col_ptr.size() != n + 1)
        throw std::invalid_argument("jac_col_ptr must have n + 1 entries");
      sort_jacobian_pattern(in);
      info_.jac_pattern.nnz = jac_row_idx_.size();
      info_.jac_pattern.col_ptr = in.jac_col_ptr.data();
      info_.jac_pattern.row_idx = jac_row_idx_.data();
    }
    info_.mass_storage = impl_->stored_as_ == MassStorage::diagonal ? DK_MASS_STORAGE_DIAGONAL
                         : impl_->stored_as_ == MassStorage::sparse ? DK_MASS_STORAGE_SPARSE
                                                                    : DK_MASS_STORAGE_DENSE;
    if (impl_->stored_as_ == MassStorage::sparse) {
      info_.mass_pattern.nnz = in.mass_row_idx.size();
      info_.mass_pattern.col_ptr = in.mass_col_ptr.data();
      info_.mass_pattern.row_idx = in.mass_row_idx.data();
    }
    info_.nroots = in.roots.size();
    info_.root_direction = in.roots.empty() ? nullptr : root_directions_.data();
    info_.root_terminal = in.roots.empty() ? nullptr : root_terminal_.data();
    info_.root_names = in.roots.empty() ? nullptr : root_names_.data();
    const bool any_scale = std::any_of(root_time_scales_.begin(), root_time_scales_.end(), [](double s) { return s > 0.0; });
    info_.root_time_scale = any_scale ? root_time_scales_.data() : nullptr;
    info_.constraints = in.constraints.empty() ? nullptr : in.constraints.data();
    if (in.time_events) info_.flags |= DK_PROBLEM_TIME_EVENTS;
    if (in.step_notification) info_.flags |= DK_PROBLEM_STEP_NOTIFICATION;
    if (in.reference_at_any_time) info_.flags |= DK_PROBLEM_REFERENCE_AT;
    info_.noutputs = output_names_.size();
    info_.output_names = output_names_.empty() ? nullptr : output_names_.data();
    info_.np = p_names_.size();
    info_.p_names = p_names_.empty() ? nullptr : p_names_.data();
    info_.p_nominal = p_nominal_.empty() ? nullptr : p_nominal_.data();
    const bool any_p_scale = std::any_of(p_scale_.begin(), p_scale_.end(), [](double s) { return s > 0.0; });
    info_.p_scale = any_p_scale ? p_scale_.data() : nullptr;
    if (!in.dfdp_col_ptr.empty()) {
      info_.dfdp_pattern.nnz = in.dfdp_row_idx.size();
      info_.dfdp_pattern.col_ptr = in.dfdp_col_ptr.data();
      info_.dfdp_pattern.row_idx = in.dfdp_row_idx.data();
    }
    if (in.distributed) adopt_distribution(in, params.ranks());
  }

  // Creation key/values that are not string parameters: each must name a real parameter
  // (its value a finite number), else the problem is refused naming the valid names.
  void set_named_parameters(const std::map<std::string, std::string>& given) {
    if (given.empty()) return;
    std::vector<double> p = impl_->p_;
    const auto& declared = impl_->info().parameters;
    for (const auto& [key, text] : given) {
      std::size_t k = 0;
      while (k < declared.size() && declared[k].name != key) ++k;
      if (k == declared.size()) throw std::invalid_argument(unknown_parameter(key));
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !std::isfinite(v))
        throw std::invalid_argument("parameter '" + key + "' must be a finite number, got '" + text + "'");
      p[k] = v;
    }
    if (impl_->set_parameters(p) != Eval::ok)
      throw std::invalid_argument("the parameters were refused: " + impl_->last_error());
  }

  Problem& impl() { return *impl_; }
  const Problem& impl() const { return *impl_; }
  // The author's Jacobian values (in the author's pattern order) into the ABI's order:
  // rows ascending within each column.
  void sort_jacobian_values(double* values) {
    if (jac_order_.empty()) return;
    jac_scratch_.assign(values, values + jac_order_.size());
    for (std::size_t k = 0; k < jac_order_.size(); ++k) values[k] = jac_scratch_[jac_order_[k]];
  }
  const dk_problem_info& info() const { return info_; }
  // Capabilities known only from the class's overrides (make_problem's detection).
  void add_flags(std::uint32_t flags) { info_.flags |= flags; }
  std::string& error() { return error_; }
  const std::string& error() const { return error_; }

  dk_problem_vtbl table{};  // lives as long as the instance

 private:
  template <class T>
  static void check_size(const std::vector<T>& v, std::size_t n, const char* what) {
    if (!v.empty() && v.size() != n)
      throw std::invalid_argument(std::string("problem info '") + what + "' must have " + std::to_string(n) +
                                  " entries (one per row it describes)");
  }

  // The rows the per-row members describe: the owned ones of a distribution with local
  // rows (ABI 1.3 part G), else all n.
  static std::size_t rows_held(const ProblemInfo& in) {
    return in.distributed && in.distribution.local_rows ? in.distribution.n_local : in.n;
  }

  // What a problem with local rows may not declare: per-row data of other ranks' rows
  // (names, constraints, the global pattern) and what no distributed solver takes.
  static void check_local_rows(const ProblemInfo& in) {
    const std::string who = "problem '" + in.name + "' with local rows ";
    if (!in.component_names.empty() || in.component_name)
      throw std::invalid_argument(who + "declares component names (the output's columns are y1 .. yn)");
    if (!in.constraints.empty()) throw std::invalid_argument(who + "declares sign constraints");
    if (!in.jac_col_ptr.empty())
      throw std::invalid_argument(who + "declares a global Jacobian pattern (the distribution's local one serves)");
    if (std::any_of(in.index.begin(), in.index.end(), [](std::uint8_t i) { return i != 1; }))
      throw std::invalid_argument(who + "declares rows of index 2 or 3 (a distributed problem is of index 1 at most)");
    if (in.differential.empty() && in.mass != MassKind::identity)
      throw std::invalid_argument(who + "and a mass matrix must declare which owned rows are differential");
  }

  // --output-vars finds a variable by its name: every name must say which one it is.
  void check_output_names(const ProblemInfo& in) const {
    if (in.outputs.empty()) return;  // no set of n names to build (at 2 10^6 unknowns, 150 MB)
    std::unordered_set<std::string> taken(names_.begin(), names_.end());
    for (const auto& name : in.outputs) {
      if (name.empty()) throw std::invalid_argument("problem '" + in.name + "' names an output \"\"");
      if (!taken.insert(name).second)
        throw std::invalid_argument("problem '" + in.name + "' names the output '" + name +
                                    "' twice or as a component");
    }
  }

  // The C array of component names: pointers to the author's strings, or to one packed
  // buffer of the names component_name gives.
  void adopt_component_names(const ProblemInfo& in) {
    if (!in.component_name) {
      for (const auto& s : in.component_names) names_.push_back(s.c_str());
      return;
    }
    if (!in.component_names.empty())
      throw std::invalid_argument("problem '" + in.name + "' declares both component_names and component_name");
    for (std::size_t i = 0; i < in.n; ++i) {
      const std::string name = in.component_name(i);
      if (name.empty() || name.find('\0') != std::string::npos)
        throw std::invalid_argument("problem '" + in.name + "': component_name(" + std::to_string(i) +
                                    ") is empty or holds a NUL");
      packed_names_.insert(packed_names_.end(), name.c_str(), name.c_str() + name.size() + 1);  // with its NUL
    }
    packed_names_.shrink_to_fit();
    names_.resize(in.n);  // pointers only once the buffer no longer moves
    const char* next = packed_names_.data();
    for (const char*& name : names_) {
      name = next;
      next += std::strlen(next) + 1;
    }
  }

  // The rows this rank owns, checked, in the ABI's form; a problem that owns every row of
  // a serial run is simply whole.
  void adopt_distribution(const ProblemInfo& in, const Params::Ranks& ranks) {
    const ProblemInfo::Distribution& d = in.distribution;
    if (d.n_local == 0 || d.n_local > in.n || d.first_row > in.n - d.n_local)
      throw std::invalid_argument("problem '" + in.name + "': the distribution's owned rows are not a non-empty block of 0 .. n-1");
    if (ranks.communicator == -1) {
      if (d.n_local < in.n)
        throw std::invalid_argument("problem '" + in.name + "' owns part of its rows but was not created on MPI ranks");
      return;
    }
    if (!d.jac_row_ptr.empty() &&
        (d.jac_row_ptr.size() != d.n_local + 1 || d.jac_row_ptr.front() != 0 ||
         static_cast<std::size_t>(d.jac_row_ptr.back()) != d.jac_col_idx.size()))
      throw std::invalid_argument("problem '" + in.name + "': jac_row_ptr must have n_local + 1 entries from 0 to the "
                                  "number of jac_col_idx entries");
    distribution_ = dk_distribution{};
    distribution_.struct_size = sizeof(dk_distribution);
    distribution_.mpi_comm_f = ranks.communicator;
    distribution_.mpi_rank = ranks.rank;
    distribution_.n_local = d.n_local;
    distribution_.first_row = d.first_row;
    distribution_.nghost = d.ghost_rows.size();
    distribution_.ghost_rows = d.ghost_rows.empty() ? nullptr : d.ghost_rows.data();
    distribution_.jac_nnz = d.jac_col_idx.size();
    distribution_.jac_row_ptr = d.jac_row_ptr.empty() ? nullptr : d.jac_row_ptr.data();
    distribution_.jac_col_idx = d.jac_col_idx.empty() ? nullptr : d.jac_col_idx.data();
    distribution_.local_rows = d.local_rows ? 1u : 0u;
    info_.distribution = &distribution_;
  }

  // Real parameters: checked, their C view, and the values a new instance starts with.
  void adopt_parameters(const ProblemInfo& in) {
    std::unordered_set<std::string> taken;
    for (const auto& d : descs_) taken.insert(d.name);
    for (const auto& prm : in.parameters) {
      if (prm.name.empty()) throw std::invalid_argument("problem '" + in.name + "' names a real parameter \"\"");
      if (!taken.insert(prm.name).second)
        throw std::invalid_argument("problem '" + in.name + "' names the parameter '" + prm.name +
                                    "' twice (real parameters and string parameters share one set of names)");
      if (!std::isfinite(prm.nominal))
        throw std::invalid_argument("real parameter '" + prm.name + "': the nominal value must be finite");
      if (!(prm.scale >= 0.0) || !std::isfinite(prm.scale))
        throw std::invalid_argument("real parameter '" + prm.name + "': scale must be finite and >= 0");
      p_names_.push_back(prm.name.c_str());
      p_nominal_.push_back(prm.nominal);
      p_scale_.push_back(prm.scale);
    }
    if (!in.dfdp_col_ptr.empty()) {
      if (in.dfdp_col_ptr.size() != in.parameters.size() + 1 || in.dfdp_col_ptr.front() != 0 ||
          static_cast<std::size_t>(in.dfdp_col_ptr.back()) != in.dfdp_row_idx.size())
        throw std::invalid_argument("dfdp_col_ptr must have np + 1 entries from 0 to the number of rows");
      for (auto r : in.dfdp_row_idx)
        if (r < 0 || static_cast<std::size_t>(r) >= in.n)
          throw std::invalid_argument("dfdp_row_idx holds a row outside 0 .. n-1");
    }
    impl_->p_ = p_nominal_;
  }

  std::string unknown_parameter(const std::string& key) const {
    std::vector<std::string> names;
    for (const auto& d : descs_) names.push_back(d.name);
    for (const auto& prm : impl_->info().parameters) names.push_back(prm.name);
    std::string valid;
    for (const auto& name : names) valid += (valid.empty() ? "" : ", ") + name;
    const auto near = closest_names(key, names);
    return "unknown parameter '" + key + "'" + (near.empty() ? "" : " (did you mean " + near.front() + "?)") +
           (valid.empty() ? std::string(" (this problem has none)") : " (valid: " + valid + ")");
  }

  // The ABI wants rows ascending within each column; authors may list them in any order.
  // A sorted copy, and the order to read the author's values in when they were not sorted.
  void sort_jacobian_pattern(const ProblemInfo& in) {
    jac_row_idx_ = in.jac_row_idx;
    std::vector<std::size_t> order(in.jac_row_idx.size());
    bool sorted = true;
    for (std::size_t j = 0; j + 1 < in.jac_col_ptr.size(); ++j) {
      const auto first = static_cast<std::size_t>(in.jac_col_ptr[j]), last = static_cast<std::size_t>(in.jac_col_ptr[j + 1]);
      if (first > last || last > order.size()) throw std::invalid_argument("jac_col_ptr must not decrease or pass nnz");
      for (std::size_t k = first; k < last; ++k) order[k] = k;
      std::sort(order.begin() + static_cast<std::ptrdiff_t>(first), order.begin() + static_cast<std::ptrdiff_t>(last),
                [&](std::size_t a, std::size_t b) { return in.jac_row_idx[a] < in.jac_row_idx[b]; });
      for (std::size_t k = first; k < last; ++k) {
        jac_row_idx_[k] = in.jac_row_idx[order[k]];
        if (order[k] != k) sorted = false;
      }
    }
    if (!sorted) jac_order_ = std::move(order);
  }

  static MassStorage resolve_mass_storage(const ProblemInfo& in, const MassOverrides& overrides) {
    if (in.mass == MassKind::identity || in.form == Form::residual_only) return MassStorage::dense;
    switch (in.mass_storage) {
      case MassStorage::automatic:
        return overrides.known && !overrides.mass ? MassStorage::diagonal : MassStorage::dense;
      case MassStorage::diagonal:
        if (overrides.known && overrides.mass && !overrides.mass_diagonal)
          throw std::invalid_argument("problem '" + in.name +
                                      "' stores its mass matrix as a diagonal but overrides only mass(): "
                                      "override mass_diagonal() too");
        return MassStorage::diagonal;
      case MassStorage::sparse:
        if (in.mass_col_ptr.size() != in.n + 1)
          throw std::invalid_argument("mass_col_ptr must have n + 1 entries");
        if (in.mass_col_ptr.front() != 0 || static_cast<std::size_t>(in.mass_col_ptr.back()) != in.mass_row_idx.size())
          throw std::invalid_argument("mass_col_ptr must run from 0 to the number of entries in mass_row_idx");
        for (auto r : in.mass_row_idx)
          if (r < 0 || static_cast<std::size_t>(r) >= in.n)
            throw std::invalid_argument("mass_row_idx holds a row outside 0 .. n-1");
        return MassStorage::sparse;
      default: return MassStorage::dense;
    }
  }

  // A component whose column of M is zero at t0 is algebraic (OrdinaryDiffEq's rule).
  std::vector<std::uint8_t> derive_differential() {
    const ProblemInfo& in = impl_->info();
    const auto n = static_cast<Eigen::Index>(in.n);
    std::vector<std::uint8_t> d(rows_held(in), 1);
    if (in.mass == MassKind::identity || in.form == Form::residual_only) return d;
    Eigen::VectorXd y0 = Eigen::VectorXd::Zero(n), yp0 = Eigen::VectorXd::Zero(n);
    impl_->initial_values(Vector(y0.data(), n), Vector(yp0.data(), n));
    const ConstVector y(y0.data(), n);
    if (impl_->stored_as_ == MassStorage::diagonal) {
      Eigen::VectorXd diag = Eigen::VectorXd::Zero(n);
      if (impl_->mass_diagonal(in.t0, y, Vector(diag.data(), n)) != Eval::ok)
        throw std::runtime_error("mass matrix evaluation failed at t0");
      for (Eigen::Index j = 0; j < n; ++j) d[static_cast<std::size_t>(j)] = diag[j] != 0.0 ? 1 : 0;
      return d;
    }
    if (impl_->stored_as_ == MassStorage::sparse) {
      const auto nnz = static_cast<Eigen::Index>(in.mass_row_idx.size());
      Eigen::VectorXd values = Eigen::VectorXd::Zero(nnz);
      if (impl_->mass_sparse(in.t0, y, Vector(values.data(), nnz)) != Eval::ok)
        throw std::runtime_error("mass matrix evaluation failed at t0");
      for (Eigen::Index j = 0; j < n; ++j) {
        d[static_cast<std::size_t>(j)] = 0;
        for (auto k = in.mass_col_ptr[static_cast<std::size_t>(j)]; k < in.mass_col_ptr[static_cast<std::size_t>(j) + 1]; ++k)
          if (values[k] != 0.0) d[static_cast<std::size_t>(j)] = 1;
      }
      return d;
    }
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
    if (impl_->mass(in.t0, ConstVector(y0.data(), n), MatrixView(m.data(), n, n, Eigen::OuterStride<>(n))) !=
        Eval::ok)
      throw std::runtime_error("mass matrix evaluation failed at t0");
    for (Eigen::Index j = 0; j < n; ++j) d[j] = m.col(j).cwiseAbs().maxCoeff() != 0.0 ? 1 : 0;
    return d;
  }

  std::unique_ptr<Problem> impl_;
  std::vector<ParamDesc> descs_;
  std::vector<std::int32_t> jac_row_idx_;  // the pattern's rows, ascending in each column
  std::vector<std::size_t> jac_order_;     // the author's value index of each, if unsorted
  std::vector<double> jac_scratch_;
  std::vector<std::uint8_t> index_, scored_, differential_;
  std::vector<const char*> names_, root_names_, output_names_;
  std::vector<char> packed_names_;  // the names of component_name, each ended by a NUL (no small-string
                                    // buffer: the pointers into it survive a move)
  std::vector<std::int8_t> root_directions_;
  std::vector<std::uint8_t> root_terminal_;
  std::vector<double> root_time_scales_;
  std::vector<const char*> p_names_;
  std::vector<double> p_nominal_, p_scale_;
  std::vector<dk_param_desc> cdescs_;
  std::vector<std::string> values_;
  std::vector<const char*> cvalues_;
  dk_problem_info info_{};
  dk_distribution distribution_{};
  std::string error_;
};

// Every entry point below turns exceptions and author messages into DK_EVAL_FATAL
// with the text kept for last_error.
template <class F>
dk_eval guarded(void* self, F&& body) noexcept {
  auto* a = static_cast<ProblemAdapter*>(self);
  try {
    Eval e = body(*a);
    if (e == Eval::fatal) a->error() = a->impl().last_error();
    return static_cast<dk_eval>(e);
  } catch (const std::exception& ex) {
    a->error() = ex.what();
  } catch (...) {
    a->error() = "unknown exception in problem plugin";
  }
  return DK_EVAL_FATAL;
}

inline MatrixView matrix_view(double* data, std::size_t n, std::size_t ld) {
  return MatrixView(data, static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n),
                    Eigen::OuterStride<>(static_cast<Eigen::Index>(ld)));
}

struct ProblemTrampolines {
  static Eigen::Index size(ProblemAdapter& a) { return static_cast<Eigen::Index>(a.info().n); }
  // The entries of initial values and references: the owned rows with local rows.
  static Eigen::Index rows(const ProblemAdapter& a) { return static_cast<Eigen::Index>(dk_rows_held(&a.info())); }

  static void destroy(void* self) noexcept { delete static_cast<ProblemAdapter*>(self); }
  static const dk_problem_info* info(const void* self) noexcept {
    return &static_cast<const ProblemAdapter*>(self)->info();
  }
  static dk_eval initial_values(void* self, double* y0, double* yp0) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = rows(a);
      Eigen::VectorXd scratch;
      if (!yp0) scratch.setZero(n);
      double* yp = yp0 ? yp0 : scratch.data();
      Vector(yp, n).setZero();
      a.impl().initial_values(Vector(y0, n), Vector(yp, n));
      if (!a.impl().info().has_yp0 && yp0)
        Vector(yp0, n).setConstant(std::numeric_limits<double>::quiet_NaN());
      return Eval::ok;
    });
  }
  static dk_eval rhs(void* self, double t, const double* y, double* f) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      return a.impl().rhs(t, ConstVector(y, n), Vector(f, n));
    });
  }
  static dk_eval jacobian(void* self, double t, const double* y, double* j, std::size_t ld) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      MatrixView m = matrix_view(j, a.info().n, ld);
      m.setZero();
      return a.impl().jacobian(t, ConstVector(y, n), m);
    });
  }
  static dk_eval jacobian_sparse(void* self, double t, const double* y, double* values) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      const auto nnz = static_cast<Eigen::Index>(a.info().jac_pattern.nnz);
      const Eval e = a.impl().jacobian_sparse(t, ConstVector(y, n), Vector(values, nnz));
      a.sort_jacobian_values(values);
      return e;
    });
  }
  static dk_eval dfdt(void* self, double t, const double* y, double* df) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      return a.impl().dfdt(t, ConstVector(y, n), Vector(df, n));
    });
  }
  // The dense M (ABI 1.1's only form, still there for older hosts and solvers), from the
  // storage the problem chose.
  static dk_eval mass(void* self, double t, const double* y, double* m, std::size_t ld) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      MatrixView mv = matrix_view(m, a.info().n, ld);
      mv.setZero();
      const ConstVector yv(y, n);
      switch (a.impl().mass_stored_as()) {
        case MassStorage::diagonal: {
          Eigen::VectorXd d = Eigen::VectorXd::Zero(n);
          const Eval e = a.impl().mass_diagonal(t, yv, Vector(d.data(), n));
          mv.diagonal() = d;
          return e;
        }
        case MassStorage::sparse: {
          const auto& pat = a.info().mass_pattern;
          Eigen::VectorXd values = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(pat.nnz));
          const Eval e = a.impl().mass_sparse(t, yv, Vector(values.data(), values.size()));
          for (Eigen::Index j = 0; j < n; ++j)
            for (auto k = pat.col_ptr[j]; k < pat.col_ptr[j + 1]; ++k) mv(pat.row_idx[k], j) += values[k];
          return e;
        }
        default: return a.impl().mass(t, yv, mv);
      }
    });
  }
  static dk_eval mass_diagonal(void* self, double t, const double* y, double* d) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      Vector(d, n).setZero();
      return a.impl().mass_diagonal(t, ConstVector(y, n), Vector(d, n));
    });
  }
  static dk_eval mass_sparse(void* self, double t, const double* y, double* values) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto nnz = static_cast<Eigen::Index>(a.info().mass_pattern.nnz);
      Vector(values, nnz).setZero();
      return a.impl().mass_sparse(t, ConstVector(y, size(a)), Vector(values, nnz));
    });
  }
  static dk_eval residual(void* self, double t, const double* y, const double* yp, double* r) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      return a.impl().residual(t, ConstVector(y, n), ConstVector(yp, n), Vector(r, n));
    });
  }
  static dk_eval residual_jacobian(void* self, double t, const double* y, const double* yp, double cj,
                                   double* j, std::size_t ld) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a);
      MatrixView m = matrix_view(j, a.info().n, ld);
      m.setZero();
      return a.impl().residual_jacobian(t, ConstVector(y, n), ConstVector(yp, n), cj, m);
    });
  }
  static dk_eval reference(const void* self, double* yref) noexcept {
    const auto* a = static_cast<const ProblemAdapter*>(self);
    const auto& ref = a->impl().info().reference;
    if (ref.empty()) return DK_EVAL_NOT_PROVIDED;
    std::memcpy(yref, ref.data(), ref.size() * sizeof(double));
    return DK_EVAL_OK;
  }
  static dk_eval roots(void* self, double t, const double* y, const double*, double* g) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto m = static_cast<Eigen::Index>(a.info().nroots);
      return a.impl().roots(t, ConstVector(y, size(a)), Vector(g, m));
    });
  }
  static dk_eval next_time_event(void* self, double t, double* t_next) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      *t_next = a.impl().next_time_event(t);
      return Eval::ok;
    });
  }
  static Event event_of(const dk_event* event) {
    Event e;
    e.t = event->t;
    e.kind = event->kind;
    if (event->nfired > 0 && event->fired) e.fired.assign(event->fired, event->fired + event->nfired);
    if (event->nfired > 0 && event->directions) e.directions.assign(event->directions, event->directions + event->nfired);
    return e;
  }
  static dk_eval on_event(void* self, const dk_event* event, double* y, double*, std::uint32_t* action) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      *action = static_cast<std::uint32_t>(a.impl().on_event(event_of(event), Vector(y, size(a))));
      return Eval::ok;
    });
  }
  // The class's dg/dy and dg/dp, else central differences: in y with increments
  // eps^(1/3) max(|y_i|, 1) (root functions are mostly linear in y, where any increment
  // is exact), in p as df/dp's.
  static dk_eval roots_dgdp(void* self, double t, const double* y, double* dgdy, double* dgdp) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a), m = static_cast<Eigen::Index>(a.info().nroots);
      const auto np = static_cast<Eigen::Index>(a.info().np);
      MatrixView gy(dgdy, m, n, Eigen::OuterStride<>(m)), gp(dgdp, m, np, Eigen::OuterStride<>(m));
      gy.setZero();
      gp.setZero();
      const ConstVector at(y, n);
      const Eval e = a.impl().roots_dgdp(t, at, gy, gp);
      if (e != Eval::not_provided) return e;
      Eigen::VectorXd moved = at, plus(m), minus(m);
      const double step = std::cbrt(std::numeric_limits<double>::epsilon());
      for (Eigen::Index i = 0; i < n; ++i) {
        const double delta = step * std::max(std::abs(at[i]), 1.0);
        moved[i] = at[i] + delta;
        Eval r = a.impl().roots(t, ConstVector(moved.data(), n), Vector(plus.data(), m));
        moved[i] = at[i] - delta;
        if (r == Eval::ok) r = a.impl().roots(t, ConstVector(moved.data(), n), Vector(minus.data(), m));
        moved[i] = at[i];
        if (r != Eval::ok) return r;
        gy.col(i) = (plus - minus) / (2.0 * delta);
      }
      if (np == 0) return Eval::ok;
      return central_differences_in_p(
          a.impl(), [&](Vector g) { return a.impl().roots(t, at, g); }, gp);
    });
  }
  static dk_eval event_derivatives(void* self, const dk_event* event, const double* y, double* dRdy,
                                   double* dRdp) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = size(a), np = static_cast<Eigen::Index>(a.info().np);
      MatrixView ry(dRdy, n, n, Eigen::OuterStride<>(n)), rp(dRdp, n, np, Eigen::OuterStride<>(n));
      ry.setZero();
      rp.setZero();
      return a.impl().event_derivatives(event_of(event), ConstVector(y, n), ry, rp);
    });
  }
  static dk_eval reference_at(const void* self, double t, double* yref) noexcept {
    // The const boundary of the ABI (a reference does not change the problem); the
    // adapter's error text is the only state written.
    return guarded(const_cast<void*>(self), [&](ProblemAdapter& a) {
      return a.impl().reference_at(t, Vector(yref, rows(a)));
    });
  }
  static dk_eval step_completed(void* self, double t, const double* y, std::uint32_t* action) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      *action = static_cast<std::uint32_t>(a.impl().step_completed(t, ConstVector(y, size(a))));
      return Eval::ok;
    });
  }
  static dk_eval outputs(void* self, double t, const double* y, std::size_t count, const std::uint32_t* which,
                         double* values) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      return a.impl().outputs(t, ConstVector(y, size(a)), std::span<const std::uint32_t>(which, count),
                              Vector(values, static_cast<Eigen::Index>(count)));
    });
  }
  static dk_eval set_p(void* self, const double* p) noexcept {
    auto* adapter = static_cast<ProblemAdapter*>(self);
    const std::size_t np = adapter->info().np;
    for (std::size_t i = 0; i < np; ++i)
      if (!std::isfinite(p[i])) {
        adapter->error() = "parameter '" + std::string(adapter->info().p_names[i]) + "' set to a non-finite value";
        return DK_EVAL_FATAL;
      }
    return guarded(self, [&](ProblemAdapter& a) { return a.impl().set_parameters(std::span<const double>(p, np)); });
  }
  // The class's df/dp (central differences in p when it gives none), handed over dense
  // or as the pattern's values.
  static dk_eval dfdp(void* self, double t, const double* y, double* out) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = static_cast<Eigen::Index>(a.info().n);
      if (const std::size_t nnz = a.info().dfdp_pattern.nnz; nnz > 0) {
        const Eval e = a.impl().dfdp_sparse(t, ConstVector(y, n), Vector(out, static_cast<Eigen::Index>(nnz)));
        if (e != Eval::not_provided) return e;
      }
      return in_dfdp_layout(a, out, [&](MatrixView m) {
        const Eval e = a.impl().dfdp(t, ConstVector(y, n), m);
        if (e != Eval::not_provided) return e;
        return central_differences_in_p(
            a.impl(), [&](Vector f) { return a.impl().rhs(t, ConstVector(y, n), f); }, m);
      });
    });
  }
  static dk_eval jacobian_sens(void* self, double t, const double* y, std::size_t ns, const double* s,
                               double* js) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = static_cast<Eigen::Index>(a.info().n), cols = static_cast<Eigen::Index>(ns);
      MatrixView out(js, n, cols, Eigen::OuterStride<>(n));
      out.setZero();
      return a.impl().jacobian_sens(t, ConstVector(y, n), ConstMatrixView(s, n, cols, Eigen::OuterStride<>(n)), out);
    });
  }
  static dk_eval jacobian_vector(void* self, double t, const double* y, const double* v, double* jv) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = static_cast<Eigen::Index>(a.info().n);
      return a.impl().jacobian_vector(t, ConstVector(y, n), ConstVector(v, n), Vector(jv, n));
    });
  }
  static dk_eval residual_jacobian_vector(void* self, double t, const double* y, const double* yp, double cj,
                                          const double* v, double* out) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = static_cast<Eigen::Index>(a.info().n);
      return a.impl().residual_jacobian_vector(t, ConstVector(y, n), ConstVector(yp, n), cj, ConstVector(v, n),
                                               Vector(out, n));
    });
  }
  static dk_eval prec_setup(void* self, double t, const double* y, double gamma, std::int32_t* jac_current) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      bool current = *jac_current != 0;
      const Eval e = a.impl().preconditioner_setup(t, ConstVector(y, static_cast<Eigen::Index>(a.info().n)), gamma, current);
      *jac_current = current ? 1 : 0;
      return e;
    });
  }
  static dk_eval prec_solve(void* self, double t, const double* y, const double* r, double* z, double gamma,
                            double delta) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = static_cast<Eigen::Index>(a.info().n);
      return a.impl().preconditioner_solve(t, ConstVector(y, n), ConstVector(r, n), Vector(z, n), gamma, delta);
    });
  }
  // dF/dp of a residual-form problem, likewise.
  static dk_eval residual_dfdp(void* self, double t, const double* y, const double* yp, double* out) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto n = static_cast<Eigen::Index>(a.info().n);
      return in_dfdp_layout(a, out, [&](MatrixView m) {
        const Eval e = a.impl().residual_dfdp(t, ConstVector(y, n), ConstVector(yp, n), m);
        if (e != Eval::not_provided) return e;
        return central_differences_in_p(
            a.impl(), [&](Vector r) { return a.impl().residual(t, ConstVector(y, n), ConstVector(yp, n), r); }, m);
      });
    });
  }
  // fill(m) writes a dense, zeroed n x np matrix; it reaches `out` dense or as pattern values.
  template <class Fill>
  static Eval in_dfdp_layout(ProblemAdapter& a, double* out, Fill fill) {
    const dk_problem_info& info = a.info();
    const auto n = static_cast<Eigen::Index>(info.n), np = static_cast<Eigen::Index>(info.np);
    if (info.dfdp_pattern.nnz == 0) {
      MatrixView m(out, n, np, Eigen::OuterStride<>(n));
      m.setZero();
      return fill(m);
    }
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, np);
    const Eval e = fill(MatrixView(dense.data(), n, np, Eigen::OuterStride<>(n)));
    if (e != Eval::ok) return e;
    for (Eigen::Index j = 0; j < np; ++j)
      for (auto k = info.dfdp_pattern.col_ptr[j]; k < info.dfdp_pattern.col_ptr[j + 1]; ++k)
        out[k] = dense(info.dfdp_pattern.row_idx[k], j);
    return Eval::ok;
  }
  // Distributed problems (ABI 1.3 part E): every vector local.
  static Eigen::Index owned(ProblemAdapter& a) { return static_cast<Eigen::Index>(a.info().distribution->n_local); }
  static Eigen::Index local(ProblemAdapter& a) {
    return static_cast<Eigen::Index>(a.info().distribution->n_local + a.info().distribution->nghost);
  }
  static dk_eval rhs_local(void* self, double t, const double* y, double* f) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      return a.impl().rhs_local(t, ConstVector(y, local(a)), Vector(f, owned(a)));
    });
  }
  static dk_eval jacobian_local(void* self, double t, const double* y, double* values) noexcept {
    return guarded(self, [&](ProblemAdapter& a) {
      const auto nnz = static_cast<Eigen::Index>(a.info().distribution->jac_nnz);
      return a.impl().jacobian_local(t, ConstVector(y, local(a)), Vector(values, nnz));
    });
  }
  static dk_eval mass_diagonal_local(void* self, double* d) noexcept {
    return guarded(self, [&](ProblemAdapter& a) { return a.impl().mass_diagonal_local(Vector(d, owned(a))); });
  }
  static std::size_t last_error(const void* self, char* buf, std::size_t size) noexcept {
    const auto& msg = static_cast<const ProblemAdapter*>(self)->error();
    copy_message(msg, buf, size);
    return msg.size();
  }
};

// The table for one instance: optional entries the problem does not provide are
// NULL, as the ABI says, so solvers see at once what they must supply themselves.
inline dk_problem_vtbl problem_vtbl(const dk_problem_info& info) {
  dk_problem_vtbl t = {sizeof(dk_problem_vtbl),
                       &ProblemTrampolines::destroy,
                       &ProblemTrampolines::info,
                       &ProblemTrampolines::initial_values,
                       &ProblemTrampolines::rhs,
                       &ProblemTrampolines::jacobian,
                       &ProblemTrampolines::jacobian_sparse,
                       &ProblemTrampolines::dfdt,
                       &ProblemTrampolines::mass,
                       &ProblemTrampolines::residual,
                       &ProblemTrampolines::residual_jacobian,
                       &ProblemTrampolines::reference,
                       &ProblemTrampolines::last_error,
                       &ProblemTrampolines::mass_diagonal,
                       &ProblemTrampolines::mass_sparse,
                       &ProblemTrampolines::roots,
                       &ProblemTrampolines::next_time_event,
                       &ProblemTrampolines::on_event,
                       &ProblemTrampolines::reference_at,
                       &ProblemTrampolines::jacobian_vector,
                       &ProblemTrampolines::step_completed,
                       &ProblemTrampolines::outputs,
                       &ProblemTrampolines::set_p,
                       &ProblemTrampolines::dfdp,
                       &ProblemTrampolines::residual_dfdp,
                       &ProblemTrampolines::jacobian_sens,
                       &ProblemTrampolines::roots_dgdp,
                       &ProblemTrampolines::event_derivatives,
                       &ProblemTrampolines::residual_jacobian_vector,
                       &ProblemTrampolines::prec_setup,
                       &ProblemTrampolines::prec_solve,
                       &ProblemTrampolines::rhs_local,
                       &ProblemTrampolines::jacobian_local,
                       &ProblemTrampolines::mass_diagonal_local};
  if (!info.distribution) t.rhs_local = nullptr, t.jacobian_local = nullptr, t.mass_diagonal_local = nullptr;
  if (info.distribution && info.distribution->jac_nnz == 0) t.jacobian_local = nullptr;
  if (info.mass_kind == DK_MASS_IDENTITY) t.mass_diagonal_local = nullptr;
  if (!(info.flags & DK_PROBLEM_ANALYTIC_JACOBIAN)) t.jacobian = nullptr;
  if (!(info.flags & DK_PROBLEM_SPARSE_JACOBIAN)) t.jacobian_sparse = nullptr;
  if (!(info.flags & DK_PROBLEM_ANALYTIC_DFDT)) t.dfdt = nullptr;
  if (!(info.flags & DK_PROBLEM_ANALYTIC_RESIDUAL_JACOBIAN)) t.residual_jacobian = nullptr;
  if (info.mass_storage != DK_MASS_STORAGE_DIAGONAL) t.mass_diagonal = nullptr;
  if (info.mass_storage != DK_MASS_STORAGE_SPARSE) t.mass_sparse = nullptr;
  if (info.form == DK_FORM_RESIDUAL_ONLY) {
    t.rhs = nullptr;
    t.jacobian = nullptr;
    t.jacobian_sparse = nullptr;
    t.dfdt = nullptr;
    t.mass = nullptr;
  }
  if (!info.has_reference) t.reference = nullptr;
  if (info.nroots == 0) t.roots = nullptr, t.roots_dgdp = nullptr;
  if (!(info.flags & DK_PROBLEM_REFERENCE_AT)) t.reference_at = nullptr;
  if (!(info.flags & DK_PROBLEM_TIME_EVENTS)) t.next_time_event = nullptr;
  if (!(info.flags & DK_PROBLEM_STEP_NOTIFICATION)) t.step_completed = nullptr;
  if (info.noutputs == 0) t.outputs = nullptr;
  if (info.np == 0) {
    t.set_p = nullptr;
    t.dfdp = nullptr;
  }
  if (info.np == 0 || info.form != DK_FORM_RESIDUAL_ONLY) t.residual_dfdp = nullptr;
  if (info.np > 0 && info.form == DK_FORM_RESIDUAL_ONLY) t.dfdp = nullptr;  // no f to differentiate
  if (!(info.flags & DK_PROBLEM_DIRECTIONAL_DERIVATIVE) || info.form == DK_FORM_RESIDUAL_ONLY) t.jacobian_vector = nullptr;
  if (!(info.flags & DK_PROBLEM_PRECONDITIONER)) t.prec_setup = nullptr, t.prec_solve = nullptr;
  if (info.nroots == 0 && !(info.flags & (DK_PROBLEM_TIME_EVENTS | DK_PROBLEM_STEP_NOTIFICATION)))
    t.on_event = nullptr;
  return t;
}

// The Krylov entries a class gives: J v when it overrides jacobian_vector (AutoDiffProblem
// does, by one pass on duals); a preconditioner when it overrides both of its functions.
template <class Class>
constexpr std::uint32_t krylov_flags() {
  using Products = Eval (Problem::*)(double, ConstVector, ConstVector, Vector);
  using Setup = Eval (Problem::*)(double, ConstVector, double, bool&);
  using Solve = Eval (Problem::*)(double, ConstVector, ConstVector, Vector, double, double);
  std::uint32_t flags = 0;
  if constexpr (!std::is_same_v<decltype(&Class::jacobian_vector), Products>) flags |= DK_PROBLEM_DIRECTIONAL_DERIVATIVE;
  constexpr bool setup = !std::is_same_v<decltype(&Class::preconditioner_setup), Setup>;
  constexpr bool solve = !std::is_same_v<decltype(&Class::preconditioner_solve), Solve>;
  static_assert(setup == solve, "a problem's preconditioner overrides both preconditioner_setup and preconditioner_solve");
  if constexpr (setup && solve) flags |= DK_PROBLEM_PRECONDITIONER;
  return flags;
}

template <class Class>
std::int32_t make_problem(const dk_host* host, const dk_keyval* params, std::size_t nparams,
                          dk_problem* out, char* err, std::size_t err_size) noexcept {
  return guarded_factory(
      [&] {
        std::map<std::string, std::string> given;
        for (std::size_t i = 0; i < nparams; ++i) given[params[i].key] = params[i].value;
        std::vector<ParamDesc> descs;
        if constexpr (requires { Class::parameters(); }) descs = Class::parameters();
        Params p(descs, given, /*defer_unknown=*/true);
        p.set_host(host);
        const MassOverrides overrides = MassOverrides::of<Class>();
        std::unique_ptr<ProblemAdapter> adapter(
            new ProblemAdapter(std::make_unique<Class>(p), std::move(descs), p, overrides));
        adapter->set_named_parameters(p.pending());
        adapter->add_flags(krylov_flags<Class>());
        adapter->table = problem_vtbl(adapter->info());
        // A pattern without values: solvers difference in it (one evaluation per colour).
        if (!overrides.jacobian_sparse || adapter->impl().info().jacobian_pattern_only)
          adapter->table.jacobian_sparse = nullptr;
        // A problem that does not override on_event only watches its root functions:
        // no reaction, so solvers report its events without restarting.
        using Reaction = EventAction (Problem::*)(const Event&, Vector);
        if constexpr (std::is_same_v<decltype(&Class::on_event), Reaction>) adapter->table.on_event = nullptr;
        // Reset derivatives only from a class that gives them: solvers then know to stop
        // at a reset they cannot differentiate.
        using ResetDerivatives = Eval (Problem::*)(const Event&, ConstVector, MatrixView, MatrixView);
        if constexpr (std::is_same_v<decltype(&Class::event_derivatives), ResetDerivatives>)
          adapter->table.event_derivatives = nullptr;
        // (df/dy) S only from a class that gives it (else solvers multiply or difference).
        using SensitivityProducts = Eval (Problem::*)(double, ConstVector, ConstMatrixView, MatrixView);
        if constexpr (std::is_same_v<decltype(&Class::jacobian_sens), SensitivityProducts>)
          adapter->table.jacobian_sens = nullptr;
        using ResidualProducts = Eval (Problem::*)(double, ConstVector, ConstVector, double, ConstVector, Vector);
        if constexpr (std::is_same_v<decltype(&Class::residual_jacobian_vector), ResidualProducts>)
          adapter->table.residual_jacobian_vector = nullptr;
        // The local entries only from a class that gives them: a distribution without
        // rhs_local is then refused by the loader, by name, before any solve.
        using LocalEntry = Eval (Problem::*)(double, ConstVector, Vector);
        if constexpr (std::is_same_v<decltype(&Class::rhs_local), LocalEntry>) adapter->table.rhs_local = nullptr;
        if constexpr (std::is_same_v<decltype(&Class::jacobian_local), LocalEntry>)
          adapter->table.jacobian_local = nullptr;
        out->vtbl = &adapter->table;
        out->self = adapter.release();
      },
      err, err_size, "problem");
}

}  // namespace daekit::sdk

#define DAEKIT_EXPORT_PROBLEM(Class, NAME, VERSION, DESCRIPTION) \
  DAEKIT_EXPORT_PROBLEM_TAGGED(Class, NAME, VERSION, DESCRIPTION, DAEKIT_ABI_TAG)
#define DAEKIT_EXPORT_PROBLEM_TAGGED(Class, NAME, VERSION, DESCRIPTION, TAG) \
  DAEKIT_EXPORT_PROBLEM_EXPAND(Class, NAME, VERSION, DESCRIPTION, TAG)
#define DAEKIT_EXPORT_PROBLEM_EXPAND(Class, NAME, VERSION, DESCRIPTION, TAG)                       \
  static std::int32_t daekit_entry_impl_##NAME(const dk_host* host, const dk_keyval* params,       \
                                               std::size_t nparams, dk_problem* out, char* err,   \
                                               std::size_t err_size) noexcept {                   \
    return ::daekit::sdk::make_problem<Class>(host, params, nparams, out, err, err_size);          \
  }                                                                                                \
  DAEKIT_DETAIL_MANIFEST(NAME, DK_KIND_PROBLEM, VERSION, DESCRIPTION, TAG)
