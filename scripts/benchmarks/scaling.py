#!/usr/bin/env python3
"""Time and memory against problem size, for docs/benchmarks/scaling.md.

Runs `daekit run` on heat2d (5-point stencil, algebraic boundary: an index-1 DAE with a
diagonal M) and brusselator (periodic 2D grid, two species) for n from 10^3 to 10^6, each
solver in its own process under /usr/bin/time, and writes

  OUT/scaling.csv   problem, N, n, solver, options, status, steps, LUs, wall s, s per step,
                    peak MB, bytes per unknown, scd
  OUT/scaling.md    the same as a table, with the machine
  OUT/scaling.png   log-log: seconds per step and peak memory against n (gnuplot)

Usage: scripts/benchmarks/scaling.py BUILD OUT [--max-n N] [--solvers a,b] [--problems heat2d,brusselator]
                         [--extra 'label=--solver-opt k=v ...']
A size whose run of one solver took longer than --budget seconds is not tried larger for
that solver (said in the table), so the script ends on any machine.
"""
import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import time

GRIDS = {
    # problem: [(N, n), ...] -- n = (N+2)^2 for heat2d, 2 N^2 for brusselator
    "heat2d": [(30, 32 * 32), (100, 102 * 102), (300, 302 * 302), (1000, 1002 * 1002)],
    "brusselator": [(22, 2 * 22 * 22), (71, 2 * 71 * 71), (224, 2 * 224 * 224), (707, 2 * 707 * 707)],
}
# A short span for the brusselator: its cost per step is the measure, and at N = 707 a
# full span (11.5) would take hours.
SPAN = {"heat2d": [], "brusselator": ["--tend", "0.5"]}


def run_one(build, problem, N, solver, extra, timeout):
    cmd = ["/usr/bin/time", "-f", "%M", os.path.join(build, "bin", "daekit"), "run", "--problem", problem,
           "--param", f"N={N}", "--solver", solver, "--rtol", "1e-6", "--report", "json"] + SPAN[problem] + extra
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout ({timeout} s)", "wall": time.time() - start}
    wall = time.time() - start
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"status": "no report: " + (p.stdout + p.stderr).strip().splitlines()[-1][:80], "wall": wall}
    peak_kb = int(p.stderr.strip().splitlines()[-1])
    st = report["stats"]
    return {"status": report["status"], "steps": st["steps"], "lus": st.get("nlu"), "wall": wall,
            "peak_mb": peak_kb / 1024.0, "scd": report.get("scd")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("--max-n", type=int, default=1_100_000)
    ap.add_argument("--solvers", default="radau5,radauiia,rodas5p,bdf,ida")
    ap.add_argument("--problems", default="heat2d,brusselator")
    ap.add_argument("--extra", action="append", default=[], help="label=extra options (one more series per label)")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds a size may take before larger ones are skipped")
    ap.add_argument("--timeout", type=float, default=1800.0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    variants = [("", [])] + [(e.split("=", 1)[0], e.split("=", 1)[1].split()) for e in args.extra]
    rows = []
    for problem in args.problems.split(","):
        for solver in args.solvers.split(","):
            for label, extra in variants:
                too_slow = False
                for N, n in GRIDS[problem]:
                    if n > args.max_n:
                        continue
                    if too_slow:
                        rows.append({"problem": problem, "N": N, "n": n, "solver": solver, "options": label,
                                     "status": "skipped: the size below took over the budget"})
                        continue
                    r = run_one(args.build, problem, N, solver, extra, args.timeout)
                    row = {"problem": problem, "N": N, "n": n, "solver": solver, "options": label, **r}
                    if r.get("steps"):
                        row["s_per_step"] = r["wall"] / r["steps"]
                    if r.get("peak_mb"):
                        row["bytes_per_unknown"] = r["peak_mb"] * 1024 * 1024 / n
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                    too_slow = r["wall"] > args.budget
    fields = ["problem", "N", "n", "solver", "options", "status", "steps", "lus", "wall", "s_per_step", "peak_mb",
              "bytes_per_unknown", "scd"]
    with open(os.path.join(args.out, "scaling.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    commit = subprocess.run([os.path.join(args.build, "bin", "daekit"), "--version", "--verbose"], capture_output=True,
                            text=True).stdout
    with open(os.path.join(args.out, "scaling.md"), "w") as f:
        f.write("Machine: " + platform.node() + ", " + platform.processor() + "; " +
                " ".join(l.strip() for l in commit.splitlines() if l.startswith(("commit", "BLAS kernel", "CPU"))) + "\n\n")
        f.write("| problem | n | solver | options | status | steps | LUs | wall s | s/step | peak MB | bytes/unknown | scd |\n")
        f.write("|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            def num(k, fmt):
                return fmt.format(r[k]) if r.get(k) is not None else ""
            f.write(f"| {r['problem']} | {r['n']} | {r['solver']} | {r.get('options', '')} | {r['status']} | "
                    f"{num('steps', '{}')} | {num('lus', '{}')} | {num('wall', '{:.2f}')} | {num('s_per_step', '{:.3g}')} | "
                    f"{num('peak_mb', '{:.0f}')} | {num('bytes_per_unknown', '{:.0f}')} | {num('scd', '{:.2f}')} |\n")
    plot(args.out, rows)


def plot(out, rows):
    series = {}
    for r in rows:
        if r.get("s_per_step") and r["status"] == "success":
            key = f"{r['problem']} {r['solver']} {r.get('options', '')}".strip()
            series.setdefault(key, []).append((r["n"], r["s_per_step"], r["peak_mb"]))
    if not series:
        return
    data = os.path.join(out, "scaling.dat")
    with open(data, "w") as f:
        for key, points in series.items():
            f.write(f'"{key}"\n')
            for n, s, m in sorted(points):
                f.write(f"{n} {s} {m}\n")
            f.write("\n\n")
    script = f"""set terminal pngcairo size 1400,600 font ',10'
set output '{os.path.join(out, 'scaling.png')}'
set multiplot layout 1,2
set logscale xy
set grid
set key left top font ',8'
set xlabel 'unknowns n'
set ylabel 'seconds per step'
set title 'time per step (dashed: slope 1 and 1.5)'
plot for [i=0:{len(series) - 1}] '{data}' index i using 1:2 with linespoints title columnheader(1), \\
     1e-6*x dt 2 lc 'grey' notitle, 1e-8*x**1.5 dt 3 lc 'grey' notitle
set ylabel 'peak resident memory (MB)'
set title 'memory (dashed: 1 kB per unknown)'
plot for [i=0:{len(series) - 1}] '{data}' index i using 1:3 with linespoints title columnheader(1), \\
     x/1000.0 dt 2 lc 'grey' notitle
unset multiplot
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=False)


if __name__ == "__main__":
    sys.exit(main())
