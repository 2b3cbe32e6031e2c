#!/usr/bin/env python3
"""A Markdown table (scd / steps / median wall s per tolerance and solver) from a
`daekit wpd` results.json:  scripts/wpd-table.py DIR/results.json [PROBLEM]"""
import json
import sys

rows = json.load(open(sys.argv[1]))["rows"]
problem = sys.argv[2] if len(sys.argv) > 2 else rows[0]["problem"]
rows = [r for r in rows if r["problem"] == problem]
tols = sorted({r["rtol"] for r in rows}, reverse=True)
solvers = list(dict.fromkeys(r["solver"] for r in rows))
print("| solver | " + " | ".join("tol %g" % t for t in tols) + " |")
print("|---|" + "---|" * len(tols))
for s in solvers:
    cells = []
    for t in tols:
        r = next(x for x in rows if x["solver"] == s and x["rtol"] == t)
        if r["status"] != "success":
            cells.append(r["status"])
        else:
            cells.append("%.2f / %d / %.3g" % (r["scd"], r["stats"]["steps"], r["wall_median_s"]))
    print("| `%s` | " % s + " | ".join(cells) + " |")
