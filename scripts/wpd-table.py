#!/usr/bin/env python3
"""A Markdown table (scd / steps / median wall s per tolerance and solver) from a
`daekit wpd` results.json:  scripts/wpd-table.py DIR/results.json [PROBLEM]"""
import json
import sys

rows = json.load(open(sys.argv[1]))["rows"]
problem = sys.argv[2] if len(sys.argv) > 2 else rows[0]["problem"]
rows = [r for r in rows if r["problem"] == problem]
# Series are setups (rows since --setup carry "setup" and the sweep's "sweep_tol"; older rows
# are one series per solver at its rtol).
series = lambda r: r.get("setup") or r["solver"]
tol_of = lambda r: r.get("sweep_tol") or r["rtol"]
tols = sorted({tol_of(r) for r in rows}, reverse=True)
solvers = list(dict.fromkeys(series(r) for r in rows))
print("| setup | " + " | ".join("tol %g" % t for t in tols) + " |")
print("|---|" + "---|" * len(tols))
for s in solvers:
    cells = []
    for t in tols:
        r = next(x for x in rows if series(x) == s and tol_of(x) == t)
        if r["status"] != "success":
            cells.append(r["status"])
        else:
            cells.append("%.2f / %d / %.3g" % (r["scd"], r["stats"]["steps"], r["wall_median_s"]))
    print("| `%s` | " % s + " | ".join(cells) + " |")
