"""daekit from Python: every solver plugin on every problem plugin, or on a problem
written in Python.

    import daekit
    r = daekit.solve("fekete", "radauiia", rtol=1e-8, atol=1e-8, params={"N": 20})
    print(r.status, r.scd, r.stats["steps"], r.y[-1])

docs/python.md is the guide; the plugins are found as the `daekit` command finds them
(next to the library, and in DAEKIT_PLUGIN_PATH).
"""

import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _daekit
from ._daekit import UsageError, info, problems, skipped, solvers

__all__ = ["Problem", "Result", "UsageError", "info", "plot_wpd", "problems", "skipped", "solve", "solvers", "wpd"]


def _vector(values, what):
    """A 1-D list of floats; a nested or 2-D input is refused rather than flattened."""
    a = np.asarray(values, dtype=float)
    if a.ndim != 1:
        raise UsageError(f"{what} must be a 1-D sequence of numbers, not an array of shape {a.shape}")
    return a.tolist()


class Problem:
    """A problem written in Python, M y' = f(t, y), solvable by every solver plugin.

    rhs(t, y) returns f (n values); jac(t, y) the n x n matrix df/dy (None: the solver
    differentiates); mass an n x n matrix or mass(t, y) (None: the identity, or
    diag(differential) when some components are algebraic); differential[i] 0 marks an
    algebraic component; index[i] the DAE index of component i (default 1); exact(t) the
    exact solution, if known, for scoring at any tend.
    """

    def __init__(self, n, rhs, y0, t_span, jac=None, mass=None, differential=None, index=None, yp0=None,
                 exact=None, name="python_problem"):
        t0, tend = (float(v) for v in t_span)
        self._handle = _daekit._python_problem(
            str(name), int(n), rhs, jac, mass, exact,
            _vector(y0, "y0"), [] if yp0 is None else _vector(yp0, "yp0"),
            t0, tend,
            [] if differential is None else [int(bool(d)) for d in differential],
            [] if index is None else [int(k) for k in index])
        self.n, self.name, self.t_span = int(n), str(name), (t0, tend)

    def __repr__(self):
        return f"daekit.Problem(name={self.name!r}, n={self.n}, t_span={self.t_span})"


class Result:
    """The outcome of solve(): status, message, stats, t (1-D), y (points x n), scd and
    mescd against the problem's reference (None without one), events, and r(t): y at any
    t of the span from the solver's dense output (solve(..., dense=True)). With
    solve(..., output_vars=[...]): r.variables (points x len(output_vars)) and r[name], one
    variable's column. With solve(..., sensitivities=[...]): r.sensitivities (points x n x ns),
    [p, i, k] = d y_i / d q_k, q named by r.sensitivity_names."""

    def __init__(self, solution):
        self._s = solution

    status = property(lambda self: self._s.status, doc="'success', 'too_many_steps', ...")
    message = property(lambda self: self._s.message)
    success = property(lambda self: self._s.success)
    t = property(lambda self: self._s.t)
    y = property(lambda self: self._s.y)
    stats = property(lambda self: self._s.stats)
    scd = property(lambda self: self._s.scd)
    mescd = property(lambda self: self._s.mescd)
    events = property(lambda self: self._s.events)
    problem = property(lambda self: self._s.problem)
    solver = property(lambda self: self._s.solver)
    t_reached = property(lambda self: self._s.t_reached)
    has_dense = property(lambda self: self._s.has_dense)
    variable_names = property(lambda self: self._s.variable_names)
    variables = property(lambda self: self._s.variables)
    sensitivity_names = property(lambda self: self._s.sensitivity_names)
    sensitivities = property(lambda self: self._s.sensitivities)

    def __getitem__(self, name):
        """The column of one variable of output_vars."""
        names = self._s.variable_names
        if name not in names:
            raise KeyError(f"{name!r} is not one of output_vars {names}")
        return self._s.variables[:, names.index(name)]

    def __call__(self, t):
        """y(t): one time gives n values, an array of times a (len(t) x n) array."""
        if np.ndim(t) == 0:
            return self._s._at(float(t))
        return np.array([self._s._at(float(v)) for v in np.ravel(t)]).reshape(np.shape(t) + (-1,))

    def __repr__(self):
        acc = "" if self.scd is None else f", scd={self.scd:.2f}"
        return f"daekit.Result({self.solver} on {self.problem}: {self.status}, {len(self.t)} points{acc})"


def solve(problem, solver, rtol=None, atol=None, params=None, saveat=None, tend=None, dense=False,
          every_step=True, solver_options=None, init="check", jacobian="auto", h0=0.0, hmin=0.0, hmax=0.0,
          max_steps=100000, max_events=0, index_scaling=True, suppress_algebraic=False, output_vars=None,
          event_samples=None, derivative_check=True, sensitivities=None, sensitivity_error_control=False):
    """Solve a problem (a plugin's name or a daekit.Problem) with a solver plugin.

    Output: every accepted step (every_step=True), the end only (False), or the times in
    saveat; output_vars names variables (components or the problem's outputs, as
    `daekit run --output-vars`) recorded at every point. event_samples: interior points of
    each step where root functions are sampled (None: the default, 10; 0: none);
    derivative_check=False trusts a supplied Jacobian. sensitivities: forward sensitivities
    dy/dq ("all", parameter names, "y0", "y0:NAME"; docs/sensitivities.md), with
    sensitivity_error_control=True putting them in the error test. Options as `daekit run` takes them
    (docs/cli.md); solver_options are the
    plugin's own (daekit.info(solver)["options"]). Bad settings raise UsageError; what the
    solver meets is the result's status. An exception raised by a Python callback is
    raised again from here, as it was."""
    if isinstance(problem, Problem):
        if params:
            raise UsageError("params are for plugin problems; a daekit.Problem takes its values in Python")
        handle = problem._handle
    else:
        handle = _daekit._plugin_problem(str(problem), {str(k): str(v) for k, v in (params or {}).items()})
    o = _daekit._Options()
    if rtol is not None:
        o.rtol = float(rtol)
    if atol is not None:
        o.atol = float(atol)
    if tend is not None:
        o.tend = float(tend)
    o.h0, o.hmin, o.hmax = float(h0), float(hmin), float(hmax)
    o.max_steps, o.max_events = int(max_steps), int(max_events)
    if event_samples is not None:
        if int(event_samples) != event_samples or event_samples < 0:
            raise UsageError("event_samples must be a whole number >= 0")
        o.event_samples = int(event_samples)
    o.derivative_check = bool(derivative_check)
    o.solver_options = {str(k): _option_text(v) for k, v in (solver_options or {}).items()}
    o.init, o.jacobian = str(init), str(jacobian)
    o.index_scaling, o.suppress_algebraic = bool(index_scaling), bool(suppress_algebraic)
    o.dense = bool(dense)
    o.output_end_only = not every_step
    if output_vars is not None:
        o.output_vars = [str(v) for v in ([output_vars] if isinstance(output_vars, str) else output_vars)]
    if sensitivities is not None:
        o.sensitivities = [str(v) for v in ([sensitivities] if isinstance(sensitivities, str) else sensitivities)]
        o.sensitivity_error_control = bool(sensitivity_error_control)
    if saveat is not None:
        times = np.asarray(_vector(np.atleast_1d(np.asarray(saveat, dtype=float)), "saveat"))
        if times.size == 0:
            raise UsageError("saveat gives no time")
        o.saveat = times.tolist()
    return Result(_daekit._solve(handle, str(solver), o))


def _option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _daekit_command():
    """The `daekit` command beside this installation (build or install tree)."""
    here = os.path.dirname(os.path.abspath(__file__))
    prefix = os.path.normpath(os.path.join(here, "..", "..", "..", ".."))  # <prefix>/lib/daekit/python/daekit
    candidate = os.path.join(prefix, "bin", "daekit")
    if os.access(candidate, os.X_OK):
        return candidate
    found = shutil.which("daekit")
    if found:
        return found
    raise UsageError("the daekit command was not found beside the module (" + candidate + ") nor on PATH")


def wpd(problems, solvers=(), tols="1e-4:1e-8", out=None, runs=1, error="final", params=None, solver_options=None,
        setups=None, extra_args=()):
    """A work-precision sweep by `daekit wpd` (each point in a child process, as the
    command runs it); returns its rows, the same as results.json. `setups` names series
    as `daekit wpd --setup` does: {"name": "SOLVER:key=value,...@rtol*F", ...}. `out`: the
    folder for results and diagrams (default: a temporary one, removed afterwards)."""
    problems = [problems] if isinstance(problems, str) else list(problems)
    solvers = [solvers] if isinstance(solvers, str) else list(solvers)
    if not isinstance(tols, str):
        tols = ",".join(repr(float(t)) for t in tols)
    args = [_daekit_command(), "wpd", "--tols", tols, "--runs", str(int(runs)), "--error", str(error), "--quiet"]
    if solvers:
        args += ["--solvers", ",".join(solvers)]
    for name, spec in (setups or {}).items():
        args += ["--setup", f"{name}={spec}"]
    for p in problems:
        args += ["--problem", str(p)]
    for k, v in (params or {}).items():
        args += ["--param", f"{k}={v}"]
    for solver, opts in (solver_options or {}).items():
        for k, v in opts.items():
            args += ["--solver-opt", f"{solver}:{k}={_option_text(v)}"]
    args += list(extra_args)
    folder = out or tempfile.mkdtemp(prefix="daekit-wpd-")
    try:
        done = subprocess.run(args + ["--out", folder, "--overwrite"], capture_output=True, text=True)
        if done.returncode == 2:
            raise UsageError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "daekit wpd refused")
        path = os.path.join(folder, "results.json")
        if not os.path.exists(path):
            raise RuntimeError("daekit wpd wrote no results.json: " + done.stderr.strip())
        with open(path) as f:
            data = json.load(f)
        return data["rows"]
    finally:
        if out is None:
            shutil.rmtree(folder, ignore_errors=True)


def plot_wpd(rows, ax=None, x="scd", y="wall_median_s"):
    """Draw rows of wpd() (work against precision, one line per problem and solver) with
    matplotlib; returns the axes. Failed points are left out, never joined."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise RuntimeError("plot_wpd needs matplotlib (Debian: python3-matplotlib)") from e
    if ax is None:
        _, ax = plt.subplots()
    series = {}
    for row in rows:
        series.setdefault((row.get("problem"), row.get("setup") or row.get("solver")), []).append(row)
    for (problem, solver), points in sorted(series.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        good = [p for p in points if p.get("status") == "success" and p.get(x) is not None and p.get(y) is not None]
        good.sort(key=lambda p: p[x])
        label = solver if len({k[0] for k in series}) == 1 else f"{solver} ({problem})"
        ax.plot([p[x] for p in good], [p[y] for p in good], marker="o", label=label)
    ax.set_yscale("log")
    ax.set_xlabel("scd (correct digits at the end)" if x == "scd" else x)
    ax.set_ylabel("wall time [s], median" if y == "wall_median_s" else y)
    ax.legend()
    return ax
