"""Parameter estimation: fit() and its FitResult, as `daekit fit` (docs/fit.md)."""

import os

import numpy as np

from . import _daekit
from ._daekit import UsageError
from ._solve import _option_text, _options, _problem_handle


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
