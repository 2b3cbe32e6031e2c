#!/usr/bin/env python3
"""FMU measurements for docs/fmi.md, on the test FMUs of tests/fmu (built with the tests).

  1. Overhead per f evaluation: the van der Pol FMU against the native vdpol, the same
     solver and settings (--jacobian fd, so that f evaluations dominate), best of 5 runs.
  2. Event times of radau5, rodas5p, bdf and cvode on the bouncing-ball FMU (FMI 2.0 and
     3.0) against the closed form t_1 = T, t_(k+1) = t_k + 2 e^k T.

Usage: scripts/benchmarks/fmu-bench.py BUILD_DIR
"""
import json
import math
import os
import subprocess
import sys


def run(build, args):
    out = subprocess.run([os.path.join(build, "bin", "daekit"), "run", "--report", "json"] + args,
                         capture_output=True, text=True, check=False)
    return json.loads(out.stdout)


def main():
    build = sys.argv[1]
    fmus = os.path.join(build, "tests", "fixtures", "fmu")
    print("| model | solver | rtol | f evals (native / FMU) | wall s best of 5 (native / FMU) | us per f eval (native / FMU) |")
    print("|---|---|---:|---:|---:|---:|")
    for solver in ["radau5", "rodas5p", "bdf", "cvode"]:
        for rtol in ["1e-6", "1e-9"]:
            rows = []
            for args in (["--problem", "vdpol"], ["--problem", "fmu", "--param", f"file={fmus}/van_der_pol_fmi2.fmu"]):
                best, report = math.inf, None
                for _ in range(5):
                    report = run(build, args + ["--solver", solver, "--rtol", rtol, "--atol", rtol, "--jacobian", "fd",
                                                "--in-process"])
                    best = min(best, report["wall_s"])
                rows.append((report["stats"]["nfev"], best))
            (nf0, w0), (nf1, w1) = rows
            print(f"| van der Pol | {solver} | {rtol} | {nf0} / {nf1} | {w0:.4f} / {w1:.4f} | "
                  f"{1e6 * w0 / nf0:.2f} / {1e6 * w1 / nf1:.2f} |")
    print()
    e, fall = 0.8, math.sqrt(2 * 10 / 9.81)
    exact = [fall]
    while exact[-1] + 2 * e ** len(exact) * fall < 11:
        exact.append(exact[-1] + 2 * e ** len(exact) * fall)
    print("| FMU | solver | rtol = atol | events (exact: %d) | max abs error of the event times | steps |" % len(exact))
    print("|---|---|---:|---:|---:|---:|")
    for version in ["bouncing_ball_fmi2", "bouncing_ball_fmi3"]:
        for solver in ["radau5", "rodas5p", "bdf", "cvode"]:
            for rtol in ["1e-6", "1e-9"]:
                r = run(build, ["--problem", "fmu", "--param", f"file={fmus}/{version}.fmu", "--param", "tend=11",
                                "--solver", solver, "--rtol", rtol, "--atol", rtol])
                times = [ev["t"] for ev in r["events"]]
                err = max(abs(a - b) for a, b in zip(times, exact)) if len(times) == len(exact) else float("nan")
                print(f"| {version} | {solver} | {rtol} | {len(times)} | {err:.1e} | {r['stats']['steps']} |")


if __name__ == "__main__":
    main()
