#!/usr/bin/env python3
"""Time to reach a target scd per solver and problem size, from the per-N `daekit wpd`
folders of scripts/fekete-scaling.sh: interpolated linearly in (scd, log time) between
the two successful points that bracket the target. Writes scaling.dat and scaling.gp
next to them and prints a Markdown table.
  scripts/scaling-table.py DIR TARGET_SCD"""
import glob
import json
import math
import os
import sys

out, target = sys.argv[1], float(sys.argv[2])
sizes, table = [], {}
for d in sorted(glob.glob(os.path.join(out, "N*")), key=lambda p: int(os.path.basename(p)[1:].split(".")[0]) if os.path.isdir(p) else 0):
    if not os.path.isdir(d):
        continue
    N = int(os.path.basename(d)[1:])
    rows = json.load(open(os.path.join(d, "results.json")))["rows"]
    sizes.append(N)
    for solver in dict.fromkeys(r["solver"] for r in rows):
        pts = sorted((r["scd"], r["wall_median_s"]) for r in rows
                     if r["solver"] == solver and r["status"] == "success" and r["scd"] is not None)
        time = None
        for (s0, t0), (s1, t1) in zip(pts, pts[1:]):
            if s0 <= target <= s1 and s1 > s0:
                w = (target - s0) / (s1 - s0)
                time = math.exp((1 - w) * math.log(t0) + w * math.log(t1))
                break
        if time is None and pts and pts[0][0] >= target:
            time = pts[0][1]  # the loosest tolerance already reaches it: an upper bound
        table.setdefault(solver, {})[N] = time

solvers = list(table)
with open(os.path.join(out, "scaling.dat"), "w") as f:
    f.write("# N " + " ".join(solvers) + "  (seconds to scd %g; NaN: not reached)\n" % target)
    for N in sizes:
        f.write("%d %s\n" % (N, " ".join("%.6g" % table[s][N] if table[s].get(N) else "NaN" for s in solvers)))
with open(os.path.join(out, "scaling.gp"), "w") as f:
    f.write("set terminal svg size 800,560 dynamic\nset output 'fekete-scaling.svg'\n"
            "set logscale xy\nset xlabel 'particles N (8N unknowns)'\nset ylabel 'time to scd %g (s)'\n"
            "set title 'Fekete: cost growth with the particle count'\nset key left top\nset grid\n" % target)
    f.write("plot " + ", ".join("'scaling.dat' using 1:%d with linespoints title '%s'" % (i + 2, s)
                                 for i, s in enumerate(solvers)) + "\n")
    f.write("set terminal pngcairo size 800,560\nset output 'fekete-scaling.png'\nreplot\n")
print("| solver | " + " | ".join("N = %d" % N for N in sizes) + " |")
print("|---|" + "---|" * len(sizes))
for s in solvers:
    print("| `%s` | " % s + " | ".join("%.3g s" % table[s][N] if table[s].get(N) else "not reached" for N in sizes) + " |")
