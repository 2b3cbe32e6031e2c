"""Many solves: work-precision sweeps (wpd, plot_wpd) and ensembles."""

import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _daekit
from ._daekit import UsageError, solvers
from ._problem import Problem
from ._solve import _option_text, solve


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
    """A work-precision sweep; returns its rows, the same as `daekit wpd`'s results.json.
    Plugin problems (by name) are swept by `daekit wpd` (each point in a child process, as
    the command runs it): `setups` names series as `daekit wpd --setup` does ({"name":
    "SOLVER:key=value,...@rtol*F", ...}), `out` is the folder for results and diagrams
    (default: a temporary one, removed afterwards), extra_args go to the command.
    A daekit.Problem is swept in this process (its callbacks are Python's): each solver
    (default: every solver that takes it) at each tolerance (rtol = atol), `runs` times,
    scored at tend against exact(t), else against the default reference solver's solution
    at the reference tolerance (as the command scores a problem without a reference); the
    final error only; params set its parameters. Its rows have the command's keys where
    they apply."""
    problems = [problems] if isinstance(problems, (str, Problem)) else list(problems)
    solvers = [solvers] if isinstance(solvers, str) else list(solvers)
    written = [p for p in problems if isinstance(p, Problem)]
    named = [p for p in problems if not isinstance(p, Problem)]
    if written and (out is not None or setups or extra_args):
        raise UsageError("out, setups and extra_args are the command's; a daekit.Problem is swept in this process")
    rows = []
    for problem in written:
        rows += _wpd_in_process(problem, solvers, tols, runs, error, params, solver_options)
    if named:
        rows = _wpd_command(named, solvers, tols, out, runs, error, params, solver_options, setups, extra_args) + rows
    return rows


def ensemble(problem, solver, members, workers=1, **options):
    """Solve one problem once per member: members is a list of {parameter: value}, or
    {parameter: values} of equal lengths (one member per position), for a plugin problem's
    parameters or a daekit.Problem's. options are solve()'s (rtol, atol, saveat, tend,
    every_step, sensitivities, ...). Returns the results in the members' order; a member
    that fails has its status, as solve() gives it. workers > 1 solves members on that many
    threads: plugin problems run without the GIL, so they run in parallel (a Python
    problem's callbacks take the GIL, so its members gain nothing)."""
    if "params" in options:
        raise UsageError("ensemble: the members give the params")
    if hasattr(members, "items"):
        columns = {str(k): list(np.atleast_1d(v)) for k, v in members.items()}
        lengths = {len(v) for v in columns.values()}
        if len(lengths) > 1:
            raise UsageError(f"ensemble: the members' columns differ in length: {sorted(lengths)}")
        count = lengths.pop() if lengths else 0
        members = [{k: v[i] for k, v in columns.items()} for i in range(count)]
    members = list(members)
    if not members:
        raise UsageError("ensemble: no members")
    if int(workers) < 1:
        raise UsageError("ensemble: workers must be at least 1")

    def member(params):
        # Every member its own problem instance (a plugin's made from its params, a Python
        # problem's copied): threads never share one.
        if isinstance(problem, Problem):
            return solve(problem._with_parameters(params), solver, **options)
        return solve(problem, solver, params=params, **options)

    if int(workers) == 1:
        return [member(params) for params in members]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=int(workers)) as pool:
        return list(pool.map(member, members))


def _tolerance_text(tols):
    """tols in the command's syntax: text as given, numbers joined by commas (the library
    checks both, for the command and for a sweep in this process alike)."""
    return tols if isinstance(tols, str) else ",".join(repr(float(t)) for t in np.atleast_1d(tols))


def _scored(problem, params):
    """The problem (its parameters set) and, where it has no exact solution, a copy whose
    exact(t) is the reference solution at tend, so that solve() scores the final value."""
    if params:
        problem = problem._with_parameters(params)
    if problem.has_exact:
        return problem, "exact(t)"
    solver, tol = _daekit._reference_solver, _daekit._reference_tol
    reference = solve(problem, solver, rtol=tol, atol=tol, every_step=False, max_steps=_daekit._sweep_max_steps)
    if not reference.success:
        raise RuntimeError(f"the reference solution of {problem.name} ({solver} at tol {tol:g}) failed: "
                           f"{reference.status}: {reference.message}")
    y_end, tend = np.array(reference.y[-1]), problem.t_span[1]

    def exact(t, *p):
        if t != tend:
            raise ValueError(f"the reference is known at tend = {tend} only, not at t = {t}")
        return y_end

    return problem._with(exact=exact), f"{solver} at tol {tol:g}"


def _wpd_in_process(problem, solvers, tols, runs, error, params, solver_options):
    if error != "final":
        raise UsageError(f"error={error!r}: a daekit.Problem is scored at tend (error='final'); the other "
                         "measures need the command's sweep of a plugin problem")
    if int(runs) < 1:
        raise UsageError("runs must be at least 1")
    tolerances = _daekit._tolerances(_tolerance_text(tols))
    scored, reference = _scored(problem, params)
    rows = []
    for solver in solvers or _solvers_taking(scored):
        for tol in tolerances:
            options = (solver_options or {}).get(solver)
            results = [solve(scored, solver, rtol=tol, atol=tol, every_step=False, solver_options=options,
                             max_steps=_daekit._sweep_max_steps) for _ in range(int(runs))]
            r = results[-1]
            walls = sorted(x.stats["wall_s"] for x in results)
            rows.append({"problem": problem.name, "instance": problem.name, "solver": solver, "setup": solver,
                         "rtol": tol, "atol": tol, "sweep_tol": tol, "status": r.status, "message": r.message,
                         "scd": r.scd, "mescd": r.mescd, "runs": int(runs), "wall_median_s": float(np.median(walls)),
                         "wall_min_s": walls[0], "wall_max_s": walls[-1], "stats": dict(r.stats),
                         "params": dict(params or {}), "solver_options": dict(options or {}), "reference": reference})
    return rows


def _solvers_taking(problem):
    """The solver plugins that take this problem: the others refuse it before their first
    step (a DAE to an ODE solver, say), which a one-step trial shows."""
    taking = []
    for solver in solvers():
        try:
            solve(problem, solver, every_step=False, max_steps=1)
        except UsageError:
            continue
        taking.append(solver)
    return taking


def _wpd_command(problems, solvers, tols, out, runs, error, params, solver_options, setups, extra_args):
    args = [_daekit_command(), "wpd", "--tols", _tolerance_text(tols), "--runs", str(int(runs)), "--error", str(error), "--quiet"]
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
