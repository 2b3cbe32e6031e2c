// The SDK's export path (DAEKIT_EXPORT_PROBLEM's factory) on what the docs show authors:
// a problem class without parameters() has none.
#include <catch2/catch.hpp>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

// docs/authoring/problem.md's AutoDiffProblem example (its class; no parameters())
// (optional for DAEKIT_EXPORT_PROBLEM since the docs showed it without one).
class DocsBrusselator : public daekit::AutoDiffProblem<DocsBrusselator> {
 public:
  explicit DocsBrusselator(const daekit::Params&) {
    info_.name = "my_brusselator";
    info_.n = 2;
    differentiate_automatically();  // sets analytic_jacobian
  }
  template <class T>
  daekit::Eval rhs_of(double, const T* y, T* f) {
    f[0] = 1.0 + y[0] * y[0] * y[1] - 4.0 * y[0];
    f[1] = 3.0 * y[0] - y[0] * y[0] * y[1];
    return daekit::Eval::ok;
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y << 1.5, 3.0; }
};

// A grid-like problem naming its components by a function of the index (the SDK packs the
// names); `mode` makes it misdeclare them in the ways the adapter must refuse.
class NamedByFunction : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {{"mode", "good", "good, both, empty, output"}}; }
  explicit NamedByFunction(const daekit::Params& p) {
    info_.name = "named_by_function";
    info_.n = 1000;
    info_.component_name = [](std::size_t i) { return "c" + std::to_string(i * i); };
    const std::string& mode = p.text("mode");
    if (mode == "both") info_.component_names.assign(info_.n, "x");
    if (mode == "empty") info_.component_name = [](std::size_t i) { return i == 999 ? std::string() : "c"; };
    if (mode == "output") info_.outputs = {"c49"};  // the name of component 7
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f = -y;
    return daekit::Eval::ok;
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y.setOnes(); }
};

}  // namespace

TEST_CASE("component names given as a function reach the C info packed, and bad ones are refused", "[sdk]") {
  dk_problem handle{};
  char err[256] = {};
  REQUIRE(daekit::sdk::make_problem<NamedByFunction>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
  const dk_problem_info* info = handle.vtbl->info(handle.self);
  REQUIRE(info->component_names != nullptr);
  for (std::size_t i = 0; i < info->n; ++i) {
    std::string expected = "c";
    expected += std::to_string(i * i);  // not "c" + ...: GCC 12 warns falsely on it (-Wstringop-overflow)
    REQUIRE(std::string(info->component_names[i]) == expected);
  }
  handle.vtbl->destroy(handle.self);
  for (const char* mode : {"both", "empty", "output"}) {
    INFO(mode);
    dk_problem bad{};
    const dk_keyval given[] = {{"mode", mode}};
    CHECK(daekit::sdk::make_problem<NamedByFunction>(nullptr, given, 1, &bad, err, sizeof err) != 0);
    CHECK(std::string(err).find("named_by_function") != std::string::npos);
  }
}

TEST_CASE("a problem without parameters() exports through the SDK with no parameters", "[sdk]") {
  dk_problem handle{};
  char err[256] = {};
  REQUIRE(daekit::sdk::make_problem<DocsBrusselator>(nullptr, nullptr, 0, &handle, err, sizeof err) == 0);
  const dk_problem_info* info = handle.vtbl->info(handle.self);
  CHECK(info->n == 2);
  CHECK(std::string(info->name) == "my_brusselator");
  // The exact Jacobian at (1.5, 3): [[2 y0 y1 - 4, y0^2], [3 - 2 y0 y1, -y0^2]].
  const double y[2] = {1.5, 3.0};
  double j[4] = {};
  REQUIRE(handle.vtbl->jacobian(handle.self, 0.0, y, j, 2) == DK_EVAL_OK);
  CHECK(j[0] == Approx(5.0));
  CHECK(j[1] == Approx(-6.0));
  CHECK(j[2] == Approx(2.25));
  CHECK(j[3] == Approx(-2.25));
  // A parameter given to it is refused by name, as for any problem without that parameter.
  dk_problem other{};
  const dk_keyval given[] = {{"k", "1"}};
  CHECK(daekit::sdk::make_problem<DocsBrusselator>(nullptr, given, 1, &other, err, sizeof err) != 0);
  CHECK(std::string(err).find('k') != std::string::npos);
  handle.vtbl->destroy(handle.self);
}

namespace {

// Rank 0 of 2 owning rows 0 .. 4 of 10 with per-rank data (ABI 1.3 part G); `mode`
// misdeclares it in the ways the adapter must refuse.
class LocalRows : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {{"mode", "good", "good, named, index2, whole_flags"}}; }
  explicit LocalRows(const daekit::Params& p) {
    info_.name = "local_rows";
    info_.n = 10;
    info_.distributed = true;
    info_.distribution.local_rows = true;
    info_.distribution.n_local = 5;
    info_.distribution.ghost_rows = {5};
    info_.reference.assign(5, 2.0);
    const std::string& mode = p.text("mode");
    if (mode == "named") info_.component_name = [](std::size_t i) { return std::to_string(i); };
    if (mode == "index2") info_.index.assign(5, 2);
    if (mode == "whole_flags") info_.scored.assign(10, 1);  // the whole grid's, not the owned rows'
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {  // never called on ranks
    f = -y;
    return daekit::Eval::ok;
  }
  daekit::Eval rhs_local(double, daekit::ConstVector y, daekit::Vector f) override {
    f = -y.head(f.size());
    return daekit::Eval::ok;
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y.setConstant(3.0); }
};

}  // namespace

TEST_CASE("a problem with per-rank data describes its owned rows alone, and what it cannot declare is refused",
          "[sdk]") {
  dk_host host{};
  host.struct_size = sizeof host;
  host.mpi_comm_f = 0, host.mpi_rank = 0, host.mpi_size = 2;
  dk_problem handle{};
  char err[256] = {};
  REQUIRE(daekit::sdk::make_problem<LocalRows>(&host, nullptr, 0, &handle, err, sizeof err) == 0);
  const dk_problem_info* info = handle.vtbl->info(handle.self);
  REQUIRE(info->distribution != nullptr);
  CHECK(info->distribution->local_rows == 1);
  CHECK(dk_rows_held(info) == 5);
  CHECK(info->component_names == nullptr);
  // initial_values and the reference fill the owned rows and nothing past them.
  std::vector<double> y(6, -1.0), yp(6, -1.0), ref(6, -1.0);
  REQUIRE(handle.vtbl->initial_values(handle.self, y.data(), yp.data()) == DK_EVAL_OK);
  REQUIRE(handle.vtbl->reference(handle.self, ref.data()) == DK_EVAL_OK);
  CHECK(y == std::vector<double>{3, 3, 3, 3, 3, -1});
  CHECK(ref == std::vector<double>{2, 2, 2, 2, 2, -1});
  CHECK(yp[5] == -1.0);
  handle.vtbl->destroy(handle.self);
  for (const auto& [mode, says] : {std::pair{"named", "declares component names"},
                                   std::pair{"index2", "rows of index 2 or 3"},
                                   std::pair{"whole_flags", "'scored' must have 5 entries"}}) {
    INFO(mode);
    dk_problem bad{};
    const dk_keyval given[] = {{"mode", mode}};
    CHECK(daekit::sdk::make_problem<LocalRows>(&host, given, 1, &bad, err, sizeof err) != 0);
    CHECK_THAT(std::string(err), Catch::Contains(says));
  }
}
