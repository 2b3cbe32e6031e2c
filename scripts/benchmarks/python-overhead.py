#!/usr/bin/env python3
"""The cost of a problem written in Python against the same problem as a plugin, with
the same solver and settings: total time and time per f evaluation (docs/python.md).

    PYTHONPATH=build/lib/daekit/python /usr/bin/python3 scripts/benchmarks/python-overhead.py [runs]
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import daekit


def rober():
    def f(t, y):
        return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                         0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                         3e7 * y[1] ** 2])

    def jac(t, y):
        return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                         [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                         [0.0, 6e7 * y[1], 0.0]])
    return daekit.Problem(n=3, rhs=f, jac=jac, y0=[1.0, 0.0, 0.0], t_span=(0.0, 1e11), name="rober"), {}


def hires():
    def f(t, y):
        return np.array([
            -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
            1.71 * y[0] - 8.75 * y[1],
            -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
            8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
            -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6],
            -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
            280.0 * y[5] * y[7] - 1.81 * y[6],
            -280.0 * y[5] * y[7] + 1.81 * y[6]])

    def jac(t, y):
        J = np.zeros((8, 8))
        J[0, :3] = [-1.71, 0.43, 8.32]
        J[1, :2] = [1.71, -8.75]
        J[2, 2:5] = [-10.03, 0.43, 0.035]
        J[3, 1:4] = [8.32, 1.71, -1.12]
        J[4, 4:7] = [-1.745, 0.43, 0.43]
        J[5, 3:8] = [0.69, 1.71, -0.43 - 280.0 * y[7], 0.69, -280.0 * y[5]]
        J[6, 5:8] = [280.0 * y[7], -1.81, 280.0 * y[5]]
        J[7, 5:8] = [-280.0 * y[7], 1.81, -280.0 * y[5]]
        return J
    y0 = [1.0, 0, 0, 0, 0, 0, 0, 0.0057]
    return daekit.Problem(n=8, rhs=f, jac=jac, y0=y0, t_span=(0.0, 321.8122), name="hires"), {}


def fekete(N=20):
    # The test set's stabilised index-2 formulation, vectorised; no Jacobian (both sides
    # then difference it: the plugin is run with jacobian="fd" for the same work).
    alpha = 0.5

    def f(t, y):
        p = y[:3 * N].reshape(N, 3)
        q = y[3 * N:6 * N].reshape(N, 3)
        lam, mu = y[6 * N:7 * N], y[7 * N:]
        d = p[:, None, :] - p[None, :, :]
        r = np.einsum("ijk,ijk->ij", d, d)
        np.fill_diagonal(r, 1.0)
        force = (d / r[:, :, None]).sum(axis=1)
        out = np.empty(8 * N)
        out[:3 * N] = (q + 2.0 * mu[:, None] * p).ravel()
        out[3 * N:6 * N] = (force - alpha * q + 2.0 * lam[:, None] * p).ravel()
        out[6 * N:7 * N] = (p * p).sum(axis=1) - 1.0
        out[7 * N:] = 2.0 * (p * q).sum(axis=1)
        return out
    info = daekit.info("fekete")
    y0 = daekit.solve("fekete", "radauiia", saveat=[0.0], rtol=1e-6, atol=1e-6).y[0]
    p = daekit.Problem(n=8 * N, rhs=f, y0=y0, t_span=(0.0, 1000.0), differential=info["differential"],
                       index=info["index"], name="fekete")
    return p, {"jacobian": "fd"}


def timed(problem, solver, runs, **kw):
    walls, r = [], None
    for k in range(runs + 1):
        start = time.perf_counter()
        r = daekit.solve(problem, solver, every_step=False, **kw)
        if k:  # the first run warms up
            walls.append(time.perf_counter() - start)
    return statistics.median(walls), r


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cases = [("rober", rober, "rodas5p", 1e-8, 1e-14), ("hires", hires, "radau5", 1e-8, 1e-8),
             ("fekete", fekete, "radauiia", 1e-8, 1e-8)]
    print("| problem | solver | tol | steps (plugin / Python) | f evals | plugin [ms] | Python [ms] | ratio |"
          " Python per f eval [us] | max difference at tend |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, make, solver, rtol, atol in cases:
        problem, plugin_kw = make()
        kw = dict(rtol=rtol, atol=atol)
        t_plugin, rp = timed(name, solver, runs, **kw, **plugin_kw)
        t_python, ry = timed(problem, solver, runs, **kw, **plugin_kw)
        assert rp.status == ry.status == "success", (rp.message, ry.message)
        nf = ry.stats["nfev"]
        per_f = (t_python - t_plugin) / nf * 1e6 if nf else float("nan")
        diff = float(np.max(np.abs(rp.y[-1] - ry.y[-1])))
        print(f"| {name} | {solver} | {rtol:g} | {rp.stats['steps']} / {ry.stats['steps']} | {nf} | "
              f"{t_plugin * 1e3:.2f} | {t_python * 1e3:.2f} | {t_python / t_plugin:.1f} | {per_f:.1f} | {diff:.1e} |")

    # A plugin problem from Python against the command: the solver's own wall time (its
    # stats.wall_s), alternating, median of `runs`.
    daekit_cmd = daekit._daekit_command()
    print()
    print("| problem | solver | tol | steps (command / Python) | command wall_s [ms] | Python wall_s [ms] | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, solver, tol in [("fekete", "radauiia", 1e-8), ("hires", "rodas5p", 1e-8), ("pollu", "bdf", 1e-8)]:
        cmd, py = [], []
        for _ in range(runs):
            out = subprocess.run([daekit_cmd, "run", "--problem", name, "--solver", solver, "--rtol", str(tol),
                                  "--atol", str(tol), "--report", "json"], capture_output=True, text=True)
            report = json.loads(out.stdout)
            cmd.append(report["wall_s"])
            r = daekit.solve(name, solver, rtol=tol, atol=tol, every_step=False)
            py.append(r.stats["wall_s"])
        a, b = statistics.median(cmd), statistics.median(py)
        print(f"| {name} | {solver} | {tol:g} | {report['stats']['steps']} / {r.stats['steps']} | {a * 1e3:.2f} | "
              f"{b * 1e3:.2f} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
