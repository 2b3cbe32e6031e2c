"""One solve: solve() and its Result."""

import numpy as np

from . import _daekit
from ._daekit import UsageError
from ._problem import Problem, _vector


class Result:
    """The outcome of solve(): status, message, stats, t (1-D), y (points x n), scd and
    mescd against the problem's reference (None without one), events (and t_events: each
    event function's times, as scipy's), and r(t): y at any
    t of the span from the solver's dense output (solve(..., dense=True)). With
    solve(..., output_vars=[...]): r.variables (points x len(output_vars)) and r[name], one
    variable's column. With solve(..., sensitivities=[...]): r.sensitivities (points x n x ns),
    [p, i, k] = d y_i / d q_k, q named by r.sensitivity_names."""

    def __init__(self, solution, event_names=()):
        self._s = solution
        self._event_names = list(event_names)

    status = property(lambda self: self._s.status, doc="'success', 'too_many_steps', ...")
    message = property(lambda self: self._s.message)
    success = property(lambda self: self._s.success)
    t = property(lambda self: self._s.t)
    y = property(lambda self: self._s.y)
    stats = property(lambda self: self._s.stats)
    scd = property(lambda self: self._s.scd)
    mescd = property(lambda self: self._s.mescd)
    problem = property(lambda self: self._s.problem)
    solver = property(lambda self: self._s.solver)
    t_reached = property(lambda self: self._s.t_reached)
    has_dense = property(lambda self: self._s.has_dense)
    variable_names = property(lambda self: self._s.variable_names)
    variables = property(lambda self: self._s.variables)
    sensitivity_names = property(lambda self: self._s.sensitivity_names)
    sensitivities = property(lambda self: self._s.sensitivities)

    @property
    def events(self):
        """Each event: t, kind ('root' or 'time'), index, direction and, for a root, the
        event function's name."""
        return [dict(e, name=self._event_names[e["index"]]) if e["kind"] == "root" and 0 <= e["index"] <
                len(self._event_names) else e for e in self._s.events]

    @property
    def t_events(self):
        """The times of each event function's events, one array per function (scipy's t_events)."""
        roots = [e for e in self._s.events if e["kind"] == "root"]
        return [np.array([e["t"] for e in roots if e["index"] == k]) for k in range(len(self._event_names))]

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
    return Result(_daekit._solve(handle, str(solver), o), handle.root_names)


def _problem_handle(problem, params):
    """The library's problem: a plugin's by name (with its params), or a daekit.Problem."""
    if isinstance(problem, Problem):
        return problem._with_parameters(params)._handle if params else problem._handle
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
