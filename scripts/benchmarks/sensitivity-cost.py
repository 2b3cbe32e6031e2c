#!/usr/bin/env python3
"""Cost of forward sensitivities over a plain solve at equal tolerance (docs/sensitivities.md).

For each solver, problem and set of sensitivities: the median wall time of --runs solves
(`daekit run --report json`), f/F evaluations, linear solves and steps, beside the plain
solve's. Usage: sensitivity-cost.py [--daekit build/bin/daekit] [--runs 5] [--rtol 1e-8]
"""
import argparse
import json
import statistics
import subprocess

CASES = [  # problem, sensitivities ("" = none), tend (None: the problem's)
    ("rober", ["", "k1", "all", "all,y0"], None),
    ("hires", ["", "y0:y1", "y0:y1,y0:y2,y0:y3", "y0", "all"], None),  # all: its 10 constants
    ("chemakzo", ["", "y0:y1", "y0"], None),
    ("pendulum_dae", ["", "g", "g,y0:x,y0:y"], None),
]
SOLVERS = {"rober": ["cvode", "ida", "bdf", "radau5", "radauiia", "rodas5p"],
           "hires": ["cvode", "ida", "bdf", "radau5", "radauiia", "rodas5p"],
           "chemakzo": ["ida", "bdf", "radau5", "rodas5p"], "pendulum_dae": ["bdf", "radau5", "radauiia", "rodas5p"]}


def run(daekit, problem, solver, sens, rtol):
    cmd = [daekit, "run", "--problem", problem, "--solver", solver, "--rtol", str(rtol), "--report", "json"]
    if sens:
        cmd += ["--sensitivities", sens]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--daekit", default="build/bin/daekit")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rtol", type=float, default=1e-8)
    a = ap.parse_args()
    print("| problem | solver | sensitivities | columns | wall (ms) | x plain | steps | f evals (sens) | solves (sens) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for problem, sets, _ in CASES:
        for solver in SOLVERS[problem]:
            plain = None
            for sens in sets:
                runs = [run(a.daekit, problem, solver, sens, a.rtol) for _ in range(a.runs)]
                wall = statistics.median(r["wall_s"] for r in runs)
                r = runs[0]
                if r["status"] != "success":
                    print(f"| {problem} | {solver} | {sens or '-'} | | {r['status']} | | | | |")
                    continue
                plain = wall if not sens else plain
                columns = len(r["sensitivities"]["parameters"]) if sens else 0
                s = r["stats"]
                print(f"| {problem} | {solver} | {sens or '(plain)'} | {columns} | {wall * 1e3:.2f} | "
                      f"{wall / plain:.2f} | {s['steps']} | {s['nfev']} ({s['nfev_sens']}) | "
                      f"{s['nsolve']} ({s['nsolve_sens']}) |")


if __name__ == "__main__":
    main()
