"""Problems written in Python (daekit.Problem): the callbacks, events and parameters
that the extension's PythonProblem calls from any solver plugin."""

import numpy as np

from . import _daekit
from ._daekit import UsageError


def _vector(values, what):
    """A 1-D list of floats; a nested or 2-D input is refused rather than flattened."""
    a = np.asarray(values, dtype=float)
    if a.ndim != 1:
        raise UsageError(f"{what} must be a 1-D sequence of numbers, not an array of shape {a.shape}")
    return a.tolist()


def _parameter_values(given, what):
    """{name: float} from a mapping of names to numbers, in its order."""
    if not hasattr(given, "items"):
        raise UsageError(f"{what} must map parameter names to values, not {given!r}")
    values = {}
    for key, value in given.items():
        try:
            values[str(key)] = float(value)
        except (TypeError, ValueError):
            raise UsageError(f"{what}: {key} must be a number, not {value!r}") from None
    return values


def _event_list(events):
    """events as a list: None, one function, or a sequence of functions."""
    if events is None:
        return []
    return [events] if callable(events) else list(events)


def _event_function(g, k, names):
    """(g, name, direction, terminal_after, time_scale) from scipy's attributes on g (and
    daekit's time_scale); names collects the names, each unique."""
    if not callable(g):
        raise UsageError(f"events[{k}] must be a function g(t, y), not {g!r}")
    name = getattr(g, "name", None) or getattr(g, "__name__", "")
    if not name or name == "<lambda>" or name in names:
        name = f"event{k}"
    names.append(str(name))
    direction = getattr(g, "direction", 0)
    try:
        direction = float(direction)
    except (TypeError, ValueError):
        raise UsageError(f"event {name}: direction must be a number, not {direction!r}") from None
    terminal = getattr(g, "terminal", False)
    if isinstance(terminal, bool) or terminal is None:
        terminal = int(bool(terminal))
    elif not isinstance(terminal, (int, np.integer)) or terminal < 0:
        raise UsageError(f"event {name}: terminal must be True, False or a count >= 0, not {terminal!r}")
    time_scale = getattr(g, "time_scale", 0.0)
    try:
        time_scale = float(time_scale)  # its range the SDK checks, as for a plugin's
    except (TypeError, ValueError):
        raise UsageError(f"event {name}: time_scale must be a number, not {time_scale!r}") from None
    # The direction as the ABI's DK_ROOT_RISING (1), DK_ROOT_FALLING (-1) or DK_ROOT_BOTH (0).
    return (g, str(name), 1 if direction > 0 else -1 if direction < 0 else 0, int(terminal), time_scale)


class Problem:
    """A problem written in Python, M y' = f(t, y), solvable by every solver plugin.

    rhs(t, y) returns f (n values); jac(t, y) the n x n matrix df/dy (None: the solver
    differentiates); mass an n x n matrix or mass(t, y) (None: the identity, or
    diag(differential) when some components are algebraic); differential[i] 0 marks an
    algebraic component; index[i] the DAE index of component i (default 1); exact(t) the
    exact solution, if known, for scoring at any tend.

    events: functions g(t, y) -> float, as scipy's solve_ivp takes them; an event is a sign
    change of g, located on the solver's dense output. Attributes on g, all optional:
    direction (> 0: only - to +, < 0: only + to -, 0: both), terminal (True: the run ends
    at the event; an integer k: at its k-th occurrence), name (default: the function's
    name), time_scale (the shortest time between two sign changes, docs/events.md).
    on_event(t, y, fired), where fired lists the indices of the functions that changed
    sign, returns None (nothing changes), the n values of y after the event (a reset; a
    DAE's algebraic components are then solved again) or "stop". Every solver that
    handles events handles them; r.events lists them, r.t_events per function.

    parameters: {name: value} of real parameters p. Every callback then takes their values
    (a 1-D array in this order) as its last argument, as scipy's args: rhs(t, y, p),
    jac(t, y, p), exact(t, p), g(t, y, p), on_event(t, y, fired, p). solve(..., params=
    {name: value}) solves with other values, sensitivities=[name] gives dy/dp, and fit()
    estimates them.
    """

    def __init__(self, n, rhs, y0, t_span, jac=None, mass=None, differential=None, index=None, yp0=None,
                 exact=None, name="python_problem", events=None, on_event=None, parameters=None):
        # What a copy with some arguments changed is made from (_with).
        self._arguments = dict(n=n, rhs=rhs, y0=y0, t_span=t_span, jac=jac, mass=mass, differential=differential,
                               index=index, yp0=yp0, exact=exact, name=name, events=events, on_event=on_event,
                               parameters=parameters)
        t0, tend = (float(v) for v in t_span)
        self.event_names = []
        described = [_event_function(g, k, self.event_names) for k, g in enumerate(_event_list(events))]
        self.parameters = _parameter_values(parameters or {}, "parameters")
        self._handle = _daekit._python_problem(
            str(name), int(n), rhs, jac, mass, exact,
            _vector(y0, "y0"), [] if yp0 is None else _vector(yp0, "yp0"),
            t0, tend,
            [] if differential is None else [int(bool(d)) for d in differential],
            [] if index is None else [int(k) for k in index],
            described, on_event, list(self.parameters.items()))
        self.n, self.name, self.t_span = int(n), str(name), (t0, tend)
        self.has_exact = exact is not None

    def _with(self, **changes):
        """A copy of this problem with some of its arguments changed."""
        return Problem(**{**self._arguments, **changes})

    def _with_parameters(self, params):
        """A copy with some parameters set to other values (params: {name: value})."""
        values = dict(self.parameters)
        for key, value in _parameter_values(params, "params").items():
            if key not in values:
                known = ", ".join(values) or "none"
                raise UsageError(f"params: {self.name} has no parameter {key!r} (its parameters: {known})")
            values[key] = value
        return self._with(parameters=values)

    def __repr__(self):
        return f"daekit.Problem(name={self.name!r}, n={self.n}, t_span={self.t_span})"
