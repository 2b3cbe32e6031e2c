#include "model_exchange.hpp"

#include <boost/system/system_error.hpp>
#include <stdexcept>

namespace daekit::fmu {
namespace fs = std::filesystem;

namespace {
// Status names as the standard spells them, per version.
const char* status_name(int major, int status) {
  static const char* const names2[] = {"fmi2OK", "fmi2Warning", "fmi2Discard", "fmi2Error", "fmi2Fatal", "fmi2Pending"};
  static const char* const names3[] = {"fmi3OK", "fmi3Warning", "fmi3Discard", "fmi3Error", "fmi3Fatal"};
  if (major == 2 && status >= 0 && status <= 5) return names2[status];
  if (major == 3 && status >= 0 && status <= 4) return names3[status];
  return "an unknown status";
}

std::string binaries_present(const fs::path& folder) {
  std::string list;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder / "binaries", ec))
    if (entry.is_directory()) list += (list.empty() ? "" : ", ") + entry.path().filename().string();
  return list.empty() ? "none" : list;
}
}  // namespace

fs::path platform_binary(const ModelDescription& md) {
  const char* platform = md.fmi_major == 2 ? "linux64" : "x86_64-linux";
  return fs::path("binaries") / platform / (md.model_identifier + ".so");
}

ModelExchange::ModelExchange(const ModelDescription& md, const fs::path& folder, LogSink log)
    : instance_name_(md.model_name.empty() ? md.model_identifier : md.model_name),
      resources_(folder / "resources"),
      binary_(folder / platform_binary(md)),
      log_(std::move(log)),
      major_(md.fmi_major) {
  std::error_code ec;
  if (!fs::is_regular_file(binary_, ec))
    throw std::runtime_error("the FMU has no binary for this platform (" + platform_binary(md).string() +
                             "); its binaries are for: " + binaries_present(folder));
  try {
    // Each FMU keeps its symbols to itself: every FMU exports the same function names.
    library_.load(binary_.string(), boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("the FMU's binary " + platform_binary(md).string() + " does not load: " + e.what());
  }
}

void ModelExchange::logged(int fmi_status, const char* category, const std::string& message) {
  const bool failure = fmi_status >= 3;  // Error, Fatal
  if (failure) last_logged_error_ = message;
  std::string line = "fmu '" + instance_name_ + "'";
  if (category && *category) line += " [" + std::string(category) + "]";
  line += ": " + message;
  if (log_) log_(failure ? 1 : 0, line);
}

ModelExchange::Result ModelExchange::check(int status, const char* function) {
  if (status == 0 || status == 1) return Result::ok;  // OK, Warning (logged by the FMU)
  if (status == 2) {
    error_ = std::string(function) + " returned " + status_name(major_, status);
    return Result::discard;
  }
  error_ = std::string(function) + " returned " + status_name(major_, status);
  if (!last_logged_error_.empty()) error_ += ": " + last_logged_error_;
  if (status == 4) dead_ = true;
  return Result::error;
}

ModelExchange::Result ModelExchange::missing(const char* function) {
  error_ = "the FMU's binary " + binary_.filename().string() + " does not export " + function;
  return Result::error;
}

std::unique_ptr<ModelExchange> open_model_exchange(const ModelDescription& md, const fs::path& folder, LogSink log) {
  if (!md.model_exchange) {
    if (md.co_simulation)
      throw std::runtime_error("the FMU '" + md.model_name +
                               "' is for co-simulation only (it brings its own integrator); daekit needs a "
                               "model-exchange FMU (export it with fmuType=\"me\")");
    throw std::runtime_error("the FMU '" + md.model_name + "' declares no ModelExchange interface");
  }
  if (md.model_identifier.empty()) throw std::runtime_error("the FMU's ModelExchange element has no modelIdentifier");
  return md.fmi_major == 2 ? detail::open_fmi2(md, folder, std::move(log)) : detail::open_fmi3(md, folder, std::move(log));
}

}  // namespace daekit::fmu
