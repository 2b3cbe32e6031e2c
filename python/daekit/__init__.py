"""daekit from Python: every solver plugin on every problem plugin, or on a problem
written in Python.

    import daekit
    r = daekit.solve("fekete", "radauiia", rtol=1e-8, atol=1e-8, params={"N": 20})
    print(r.status, r.scd, r.stats["steps"], r.y[-1])

docs/python.md is the guide; the plugins are found as the `daekit` command finds them
(next to the library, and in DAEKIT_PLUGIN_PATH).
"""

from ._daekit import UsageError, info, problems, skipped, solvers
from ._fit import FitResult, fit
from ._problem import Problem
from ._solve import Result, solve
from ._sweeps import ensemble, plot_wpd, wpd

__all__ = ["FitResult", "Problem", "Result", "UsageError", "ensemble", "fit", "info", "plot_wpd", "problems", "skipped",
           "solve", "solvers", "wpd"]
