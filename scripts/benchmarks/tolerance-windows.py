#!/usr/bin/env python3
"""Does accuracy move smoothly with the tolerance? scd over narrow windows of rtol.

  scripts/benchmarks/tolerance-windows.py                      # the default problems, solvers, decades
  scripts/benchmarks/tolerance-windows.py --problems fekete --solvers bdf,radau5 --decades -7,-10 --points 10
  scripts/benchmarks/tolerance-windows.py --jobs 2 --raw out.csv    # two runs at a time, every run kept

For each problem, solver and decade d, daekit runs at rtol = f 10^d for `--points` factors f
spread evenly over [0.8, 1.25] (a window of 0.19 decades: a method whose error were
proportional to the tolerance would move by 0.19 digits across it). Per window it prints the
spread (best minus worst scd) and splits it at the median: `below` (how much worse than
the window's median the worst run is: what a user can lose by a small change of the
tolerance) and `above` (how much better the best is). Failed runs are counted, never scored.
atol is the problem's suggestion (the test set's: rober 1e-4 rtol, hires 1e-4 rtol, ...), else
rtol, as `daekit run` chooses it; --atol-equal makes it rtol everywhere.

The table is markdown; `--raw` writes every run (problem, solver, decade, tol, status, scd,
steps, wall_s). The first line says which build, machine and BLAS kernel made it
(`daekit --version --verbose`). Runs are independent processes; --jobs runs that many at once
(the scd does not depend on the load, only the wall times in --raw do).
"""
import argparse
import concurrent.futures
import csv
import json
import os
import statistics
import subprocess
import sys

import c_peers

here = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROBLEMS = "fekete,hires,rober,chemakzo,orego,pollu"
DEFAULT_SOLVERS = "radau5,radauiia,rodas5p,rodas4,bdf,ndf,ida,cvode"


def factors(points):
    lo, hi = 0.8, 1.25
    return [lo + (hi - lo) * k / (points - 1) for k in range(points)]


def run(daekit, problem, solver, tol, timeout, h0_tol, atol_equal):
    args = [daekit, "run", "--problem", problem, "--solver", solver, "--rtol", repr(tol),
            "--max-steps", "1000000", "--output", os.devnull, "--report", "json"]
    if atol_equal:
        args += ["--atol", repr(tol)]
    if h0_tol:
        args += ["--h0", repr(tol)]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        j = json.loads(p.stdout) if p.stdout.strip() else {}
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "scd": None, "steps": 0, "wall_s": None}
    except json.JSONDecodeError:
        j = {}
    status = j.get("status") or ("refused" if p.returncode else "no report")
    return {"status": status, "scd": j.get("scd") if status == "success" else None,
            "steps": j.get("stats", {}).get("steps", 0), "wall_s": j.get("wall_s")}


def summarise(runs):
    scd = [r["scd"] for r in runs if r["scd"] is not None]
    failed = len(runs) - len(scd)
    if not scd:
        return None, failed
    med = statistics.median(scd)
    return {"spread": max(scd) - min(scd), "below": med - min(scd), "above": max(scd) - med, "median": med,
            "scd": scd}, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problems", default=DEFAULT_PROBLEMS)
    ap.add_argument("--solvers", default=DEFAULT_SOLVERS)
    ap.add_argument("--decades", default="-5,-8", help="exponents d of the windows' centres 10^d")
    ap.add_argument("--points", type=int, default=6, help="tolerances per window (at least 2)")
    ap.add_argument("--h0-tol", action="store_true", help="also h0 = tol (the test set's drivers' setting)")
    ap.add_argument("--atol-equal", action="store_true", help="atol = rtol, not the problem's suggestion")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--raw", help="write every run to this CSV file")
    ap.add_argument("--daekit", default=os.environ.get("DAEKIT", os.path.join(here, "..", "..", "build", "bin", "daekit")))
    a = ap.parse_args()
    if a.points < 2:
        sys.exit("tolerance-windows: --points must be at least 2")
    problems, solvers = a.problems.split(","), a.solvers.split(",")
    decades = [int(d) for d in a.decades.split(",")]
    print("Made with: " + c_peers.made_with(a.daekit))
    print("Command: scripts/benchmarks/tolerance-windows.py " + " ".join(sys.argv[1:]) + "\n")

    keys = [(p, s, d, f * 10.0 ** d) for p in problems for s in solvers for d in decades for f in factors(a.points)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda k: run(a.daekit, k[0], k[1], float("%.3g" % k[3]), a.timeout, a.h0_tol, a.atol_equal), keys))
    if a.raw:
        with open(a.raw, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["problem", "solver", "decade", "tol", "status", "scd", "steps", "wall_s"])
            for k, r in zip(keys, results):
                w.writerow([k[0], k[1], k[2], "%.3g" % k[3], r["status"], r["scd"], r["steps"], r["wall_s"]])

    print("| problem | solver | window | spread | below median | above median | failed | scd from the tightest tolerance |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    by_window = {}
    for k, r in zip(keys, results):
        by_window.setdefault(k[:3], []).append(r)
    for (p, s, d), runs in by_window.items():
        summary, failed = summarise(runs)
        if summary is None:
            statuses = sorted({r["status"] for r in runs})
            print(f"| {p} | {s} | 1e{d} | | | | {failed} | none: {', '.join(statuses)} |")
            continue
        print(f"| {p} | {s} | 1e{d} | {summary['spread']:.2f} | {summary['below']:.2f} | {summary['above']:.2f} | "
              f"{failed} | {' '.join('%.2f' % x for x in summary['scd'])} |")


if __name__ == "__main__":
    main()
