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

__all__ = ["FitResult", "Problem", "Result", "UsageError", "fit", "info", "plot_wpd", "problems", "skipped", "solve",
           "solvers", "wpd"]


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
    handle = _problem_handle(problem, params)
    o = _options(rtol, atol, tend)
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


class FitResult:
    """The outcome of fit(): status ('success', 'not_converged', 'solve_failure', 'failure',
    'interrupted'), message, and by estimate name: estimates, initial, standard_errors and
    intervals (None when the data do not determine the estimates: identifiability says
    why); covariance (array, in the order of names), chi2, residual_norm, iterations,
    solves, failed_solves, stats (summed over the solves), experiments (each measurement
    with the model and residual) and curves (each experiment's model at every step, for
    plots: id, names, t, values with one column per name)."""

    def __init__(self, d):
        self._d = d
        self.status, self.message, self.names = d["status"], d["message"], list(d["names"])
        self.estimates = dict(zip(self.names, d["estimates"]))
        self.initial = dict(zip(self.names, d["initial"]))
        k = len(self.names)
        self.covariance = np.asarray(d["covariance"]).reshape(k, k) if d["covariance"] else None
        self.standard_errors = dict(zip(self.names, d["standard_errors"])) if d["standard_errors"] else None
        self.intervals = ({n: (lo, hi) for n, lo, hi in zip(self.names, d["lower"], d["upper"])}
                          if d["lower"] else None)
        self.identifiability = d["identifiability"] or None
        for key in ("chi2", "residual_norm", "measurements", "iterations", "gradient", "solves", "failed_solves", "stats",
                    "wall_s", "experiments", "starts"):
            setattr(self, key, d[key])
        self.curves = [dict(c, t=np.asarray(c["t"]),
                            values=np.asarray(c["values"]).reshape(len(c["t"]), len(c["names"])))
                       for c in d["curves"]]

    success = property(lambda self: self.status == "success")

    def __repr__(self):
        values = ", ".join(f"{n}={v:.6g}" for n, v in self.estimates.items())
        return f"daekit.FitResult({self.status}: {values}, chi2={self.chi2:.4g})"


def _experiment_data(data):
    """(id, CSV text, source) for each experiment: a CSV path, a list of paths, or a dict
    {id: path or rows of (t, name, value, sigma)}."""
    if isinstance(data, (str, os.PathLike)):
        data = [data]
    if isinstance(data, dict):
        items = list(data.items())
    else:
        items = [(os.path.splitext(os.path.basename(os.fspath(p)))[0], p) for p in data]
    out = []
    for ident, source in items:
        if isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            if not os.path.isfile(path):
                raise UsageError(f"data file '{path}' is not a readable file")
            with open(path, encoding="utf-8", errors="replace") as f:
                out.append((str(ident), f.read(), path))
        else:
            lines = ["t,name,value,sigma"]
            for row in source:
                if len(row) != 4:
                    raise UsageError(f"experiment {ident}: each row is (t, name, value, sigma), got {row!r}")
                t, name, value, sigma = row
                lines.append(f"{float(t)!r},{name},{float(value)!r},{float(sigma)!r}")
            out.append((str(ident), "\n".join(lines) + "\n", f"experiment {ident}"))
    if not out:
        raise UsageError("no measurements: give at least one experiment")
    return out


def _conditions_text(conditions):
    """A condition table from {experiment: {name: value}} (or a CSV path)."""
    if conditions is None:
        return ""
    if isinstance(conditions, (str, os.PathLike)):
        with open(os.fspath(conditions), encoding="utf-8") as f:
            return f.read()
    names = sorted({n for values in conditions.values() for n in values})
    rows = ["experiment," + ",".join(names)]
    for ident, values in conditions.items():
        rows.append(",".join([str(ident)] + [repr(float(values[n])) if n in values else "" for n in names]))
    return "\n".join(rows) + "\n"


def fit(problem, data, estimate, solver="radau5", params=None, conditions=None, initial=None, bounds=None, log=None,
        rtol=None, atol=None, tend=None, solver_options=None, method="levenberg_marquardt", gradient="auto",
        max_iterations=100,
        starts=1, seed=1, confidence=0.95, function_tolerance=1e-12, parameter_tolerance=1e-10,
        gradient_tolerance=1e-14, init="check", max_steps=100000):
    """Estimate parameters (real parameters, and initial values as "y0:NAME") from
    measurements, as `daekit fit` (docs/fit.md): nonlinear least squares (Ceres Solver)
    with the Jacobian from forward sensitivities.

    data: a CSV path (header t,name,value,sigma), a list of them (one experiment each), or
    {id: path or [(t, name, value, sigma), ...]}; conditions: {id: {name: value}} or a CSV
    path; initial {name: guess}; bounds {name: (low, high)} (None for no bound); log: names
    estimated on a log scale, or True for all; gradient "forward", "adjoint" (the cost's
    gradient by the solver's adjoint, L-BFGS, no bounds) or "auto". Returns a FitResult;
    bad input raises UsageError before the first solve."""
    handle = _problem_handle(problem, params)
    names = [estimate] if isinstance(estimate, str) else [str(n) for n in estimate]
    log_names = set(names) if log is True else set([log] if isinstance(log, str) else (log or []))
    for what, given in (("initial", initial or {}), ("bounds", bounds or {}), ("log", log_names)):
        for n in given:
            if n not in names:
                raise UsageError(f"{what} names {n}, which estimate does not")
    estimates = []
    for n in names:
        e = _daekit._Estimate()
        e.name = n
        if initial and n in initial:
            e.initial = float(initial[n])
        if bounds and n in bounds:
            low, high = bounds[n]
            e.lower = -np.inf if low is None else float(low)
            e.upper = np.inf if high is None else float(high)
        e.log_scale = n in log_names
        estimates.append(e)
    o = _options(rtol, atol, tend)
    o.init, o.max_steps = str(init), int(max_steps)
    o.solver_options = {str(k): _option_text(v) for k, v in (solver_options or {}).items()}
    optimiser = {"method": str(method), "gradient": str(gradient), "max_iterations": int(max_iterations), "starts": int(starts),
                 "seed": int(seed), "confidence": float(confidence), "function_tolerance": float(function_tolerance),
                 "parameter_tolerance": float(parameter_tolerance), "gradient_tolerance": float(gradient_tolerance)}
    return FitResult(_daekit._fit(handle, str(solver), _experiment_data(data), _conditions_text(conditions),
                                  estimates, o, optimiser))


def _problem_handle(problem, params):
    """The library's problem: a plugin's by name (with its params), or a daekit.Problem."""
    if isinstance(problem, Problem):
        if params:
            raise UsageError("params are for plugin problems; a daekit.Problem takes its values in Python")
        return problem._handle
    return _daekit._plugin_problem(str(problem), {str(k): str(v) for k, v in (params or {}).items()})


def _options(rtol, atol, tend):
    """The library's settings of a solve, with the tolerances and end given (None: the problem's)."""
    o = _daekit._Options()
    if rtol is not None:
        o.rtol = float(rtol)
    if atol is not None:
        o.atol = float(atol)
    if tend is not None:
        o.tend = float(tend)
    return o


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
