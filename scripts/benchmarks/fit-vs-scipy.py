#!/usr/bin/env python3
"""The same fit in daekit and in scipy: Robertson's three rate constants (log scale) from a
data file, scipy.optimize.least_squares (trust region, 2-point differences for the
Jacobian) over scipy.integrate.solve_ivp (Radau with the analytic Jacobian, BDF, LSODA)
at the same tolerances, against `daekit fit`. Prints a Markdown table: final chi2,
estimates, wall time (median of --runs).

    PYTHONPATH=build/lib/daekit/python python3 scripts/benchmarks/fit-vs-scipy.py DATA.csv [--runs 3]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares


def read(path):
    rows = list(csv.DictReader(open(path)))
    t = np.array([float(r["t"]) for r in rows])
    comp = np.array([int(r["name"][1:]) - 1 for r in rows])
    value = np.array([float(r["value"]) for r in rows])
    sigma = np.array([float(r["sigma"]) for r in rows])
    return t, comp, value, sigma


def rober(t, y, k1, k2, k3):
    return [-k1 * y[0] + k3 * y[1] * y[2], k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] ** 2, k2 * y[1] ** 2]


def rober_jac(t, y, k1, k2, k3):
    return [[-k1, k3 * y[2], k3 * y[1]], [k1, -k3 * y[2] - 2 * k2 * y[1], -k3 * y[1]], [0, 2 * k2 * y[1], 0]]


def scipy_fit(data, method, rtol, atol, x0):
    t, comp, value, sigma = data
    times = np.unique(t)
    index = np.searchsorted(times, t)

    def residuals(x):
        k = np.exp(x)
        jac = rober_jac if method != "LSODA" else None
        s = solve_ivp(rober, (0, times[-1]), [1, 0, 0], method=method, t_eval=times, rtol=rtol, atol=atol, args=tuple(k),
                      jac=jac)
        if not s.success:
            return np.full(t.size, 1e10)
        return (s.y[comp, index] - value) / sigma

    r = least_squares(residuals, np.log(x0), x_scale=1.0, ftol=1e-12, xtol=1e-10, gtol=1e-14)
    return np.exp(r.x), float(np.sum(r.fun ** 2)), r.nfev


def main():
    a = argparse.ArgumentParser()
    a.add_argument("data")
    a.add_argument("--runs", type=int, default=3)
    a.add_argument("--rtol", type=float, default=1e-9)
    a.add_argument("--atol", type=float, default=1e-14)
    a.add_argument("--daekit", default=os.path.join("build", "bin", "daekit"))
    o = a.parse_args()
    data = read(o.data)
    x0 = [0.01, 1e7, 1e3]
    print("| fit | chi2 | k1 | k2 | k3 | evaluations | wall (s) |")
    print("|---|---|---|---|---|---|---|")
    for method in ("Radau", "BDF", "LSODA"):
        walls = []
        for _ in range(o.runs):
            start = time.perf_counter()
            k, chi2, nfev = scipy_fit(data, method, o.rtol, o.atol, x0)
            walls.append(time.perf_counter() - start)
        print(f"| scipy least_squares + solve_ivp {method} | {chi2:.6g} | {k[0]:.6g} | {k[1]:.6g} | {k[2]:.6g} | "
              f"{nfev} solves + Jacobians by differences | {statistics.median(walls):.3g} |")
    for solver in ("radau5", "bdf", "cvode"):
        walls = []
        for _ in range(o.runs):
            start = time.perf_counter()
            out = subprocess.run([o.daekit, "fit", "--problem", "rober", "--solver", solver, "--data", o.data,
                                  "--estimate", "k1,k2,k3", "--initial", "k1=0.01,k2=1e7,k3=1e3", "--log", "all",
                                  "--rtol", str(o.rtol), "--atol", str(o.atol), "--report", "json"],
                                 capture_output=True, text=True, check=True).stdout
            walls.append(time.perf_counter() - start)
        j = json.loads(out)
        e = j["estimates"]
        print(f"| daekit fit --solver {solver} | {j['chi2']:.6g} | {e['k1']:.6g} | {e['k2']:.6g} | {e['k3']:.6g} | "
              f"{j['solves']} solves with sensitivities | {statistics.median(walls):.3g} |")


if __name__ == "__main__":
    main()
