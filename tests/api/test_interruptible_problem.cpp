// The problem a solve sees when it can be interrupted (Python's Ctrl-C, a cancel button)
// forwards every entry of the problem's table: one it drops would make a solver take the
// problem for one without it (a df/dp lost there refused sensitivities from Python).
#include <catch2/catch.hpp>
#include <atomic>
#include <cstring>
#include <daekit/api/interruptible_problem.hpp>

namespace {

void never_called() {}

// The table's entries after struct_size: every one a function pointer.
constexpr std::size_t first_entry = offsetof(dk_problem_vtbl, destroy);
constexpr std::size_t entries = (sizeof(dk_problem_vtbl) - first_entry) / sizeof(void (*)());

void (*entry(const dk_problem_vtbl& table, std::size_t k))() {
  void (*f)() = nullptr;
  std::memcpy(&f, reinterpret_cast<const char*>(&table) + first_entry + k * sizeof f, sizeof f);
  return f;
}

}  // namespace

TEST_CASE("an interruptible problem forwards every entry the problem has, and no other", "[api]") {
  static_assert(offsetof(dk_problem_vtbl, destroy) + entries * sizeof(void (*)()) == sizeof(dk_problem_vtbl));
  dk_problem_vtbl full{};
  full.struct_size = sizeof full;
  for (std::size_t k = 0; k < entries; ++k) {
    void (*f)() = &never_called;
    std::memcpy(reinterpret_cast<char*>(&full) + first_entry + k * sizeof f, &f, sizeof f);
  }
  dk_problem_vtbl empty{};
  empty.struct_size = sizeof empty;
  const std::atomic<bool> flag{false};
  const daekit::api::InterruptibleProblem all(dk_problem{&full, nullptr}, &flag);
  const daekit::api::InterruptibleProblem none(dk_problem{&empty, nullptr}, &flag);
  for (std::size_t k = 0; k < entries; ++k) {
    INFO("entry " << k << " of dk_problem_vtbl (after struct_size)");
    CHECK(entry(*all.handle().vtbl, k) != nullptr);
    // destroy and last_error are the wrapper's own; nothing else appears from nowhere.
    const bool own = first_entry + k * sizeof(void (*)()) == offsetof(dk_problem_vtbl, destroy) ||
                     first_entry + k * sizeof(void (*)()) == offsetof(dk_problem_vtbl, last_error);
    if (!own) CHECK(entry(*none.handle().vtbl, k) == nullptr);
  }
}
