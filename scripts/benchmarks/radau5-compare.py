#!/usr/bin/env python3
"""Our solvers against Hairer's RADAU5 on one problem, in one run of this machine: RADAU5
through scripts/benchmarks/radau5-reference.sh, ours through `daekit run`, both with the test set
driver's settings (h0 = rtol = atol = tol); RADAU5's time is the median of REPEATS runs
(default 5), ours the best.
For each of our runs: RADAU5's time at the same scd, interpolated linearly in (scd, log time)
between its two nearest points (extrapolated beyond its ends), and the ratio of the times.
  scripts/benchmarks/radau5-compare.py PROBLEM SOLVER[,SOLVER...] TOL...
  scripts/benchmarks/radau5-compare.py fekete radau5,radauiia 1e-4 1e-6 1e-8 1e-10 1e-12"""
import json
import math
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
daekit = os.environ.get("DAEKIT", os.path.join(here, "..", "..", "build", "bin", "daekit"))
repeats = int(os.environ.get("REPEATS", "5"))
problem, solvers, tols = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]

table = subprocess.run(["bash", os.path.join(here, "radau5-reference.sh"), problem] + tols, check=True,
                       capture_output=True, text=True, env=dict(os.environ, REPEATS=str(repeats))).stdout
hairer = []  # (tol, scd, steps, lus, seconds)
for line in table.splitlines()[2:]:
    cells = [c.strip() for c in line.strip("|").split("|")]
    if cells[1].startswith("fails"):
        continue
    hairer.append((cells[0], float(cells[1]), int(cells[2]), int(cells[5]), float(cells[6])))
# RADAU5's work-precision curve: one point per scd (the fastest), in increasing scd.
curve = sorted({scd: seconds for _, scd, _, _, seconds in sorted(hairer, key=lambda h: -h[4])}.items())


def radau5_seconds(scd):
    if len(curve) == 1:
        return curve[0][1]
    i = min(max(1, sum(1 for s, _ in curve if s < scd)), len(curve) - 1)
    (s0, t0), (s1, t1) = curve[i - 1], curve[i]
    f = (scd - s0) / (s1 - s0)
    return math.exp(math.log(t0) + f * (math.log(t1) - math.log(t0)))


print("| solver | tol | scd | steps | LUs | seconds | RADAU5 at that scd | ratio |")
print("|---|---|---|---|---|---|---|---|")
for tol, scd, steps, lus, seconds in hairer:
    print(f"| RADAU5 | {tol} | {scd:.2f} | {steps} | {lus} | {seconds:.3f} | | |")
for solver in solvers:
    for tol in tols:
        best = None
        for _ in range(repeats):
            run = subprocess.run([daekit, "run", "--problem", problem, "--solver", solver, "--rtol", tol, "--atol", tol,
                                  "--h0", tol, "--report", "json"], capture_output=True, text=True)
            result = json.loads(run.stdout)
            if best is None or result["wall_s"] < best["wall_s"]:
                best = result
        s = best["stats"]
        if best["status"] != "success":
            print(f"| {solver} | {tol} | {best['status']} | {s['steps']} | {s['nlu']} | | | |")
            continue
        reference = radau5_seconds(best["scd"])
        print(f"| {solver} | {tol} | {best['scd']:.2f} | {s['steps']} | {s['nlu']} | {best['wall_s']:.3f} | "
              f"{reference:.3f} | {best['wall_s'] / reference:.2f} |")
