// What the bindings' files share: the registry, the problem objects of the Python side,
// statistics as a dict, and Ctrl-C during a native solve.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <csignal>
#include <daekit/daekit.hpp>

#include "python_problem.hpp"

namespace daekit::python {

namespace py = pybind11;

// Discovery once per process, by the library's rules (next to it, DAEKIT_PLUGIN_PATH).
const Registry& registry();

// A problem object of the Python side: a plugin problem or a PythonProblem, ready to solve.
struct PyProblemHandle {
  ProblemHandle handle;
  PythonProblem* python = nullptr;  // owned by handle, when written in Python
};

py::dict stats_dict(const dk_stats& s);

// Ctrl-C during a native solve. Python's own SIGINT handler only notes the signal for the
// interpreter, which sees it when the solve returns; while a solve runs in the main
// thread, this handler raises the solve's interrupt flag too (the solve ends at its next
// model evaluation) and the signal is handed back to Python afterwards, whose handler
// then runs as it would have (KeyboardInterrupt by default).
extern std::atomic<bool> sigint_during_solve;
extern "C" void note_sigint(int);

class SigintDuringSolve {
 public:
  SigintDuringSolve() : active_(PyGILState_Check() && is_main_thread()) {
    if (!active_) return;
    sigint_during_solve.store(false);
    struct sigaction ours {};
    ours.sa_handler = &note_sigint;
    sigemptyset(&ours.sa_mask);
    active_ = sigaction(SIGINT, &ours, &previous_) == 0;
  }
  ~SigintDuringSolve() {
    if (active_) sigaction(SIGINT, &previous_, nullptr);
  }
  SigintDuringSolve(const SigintDuringSolve&) = delete;
  SigintDuringSolve& operator=(const SigintDuringSolve&) = delete;
  const std::atomic<bool>* flag() const { return active_ ? &sigint_during_solve : nullptr; }
  // After the solve (GIL held): the signal to Python, and its handler's exception raised.
  void hand_over() const {
    if (!active_ || !sigint_during_solve.load()) return;
    PyErr_SetInterruptEx(SIGINT);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }

 private:
  static bool is_main_thread() {
    const py::module_ threading = py::module_::import("threading");
    return threading.attr("main_thread")().is(threading.attr("current_thread")());
  }
  bool active_;
  struct sigaction previous_ {};
};

}  // namespace daekit::python
