#!/usr/bin/env python3
"""A Markdown table (scd / steps / median wall s per tolerance and solver) from a
`daekit wpd` results.json, and when the sweep computed DiffEqDevTools' `final-mean`
(--error final,final-mean) a second one of it beside scd:
  scripts/benchmarks/wpd-table.py DIR/results.json [PROBLEM]"""
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


def table(cell):
    """One row per series, one column per tolerance; a failed point shows its status."""
    print("| setup | " + " | ".join("tol %g" % t for t in tols) + " |")
    print("|---|" + "---|" * len(tols))
    for s in solvers:
        cells = []
        for t in tols:
            r = next(x for x in rows if series(x) == s and tol_of(x) == t)
            cells.append(cell(r) if r["status"] == "success" else r["status"])
        print("| `%s` | " % s + " | ".join(cells) + " |")


table(lambda r: "%.2f / %d / %.3g" % (r["scd"], r["stats"]["steps"], r["wall_median_s"]))
# SciML's :final (the mean absolute error at tend over all components), when computed.
if any(isinstance(r.get("final_mean"), (int, float)) for r in rows):
    print()
    print("SciML's final error (mean absolute error at tend, `--error final-mean`) / scd:")
    print()
    table(lambda r: "%.2e / %.2f" % (r["final_mean"], r["scd"]))
