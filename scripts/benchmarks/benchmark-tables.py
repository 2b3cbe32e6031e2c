#!/usr/bin/env python3
"""Rewrites the generated blocks of docs/benchmarks/README.md from the sweeps' files:
between "<!-- generated: NAME -->" and "<!-- end generated -->" it puts the line saying
which machine, BLAS kernel, build and commit made NAME (from NAME/results.json, or
the scaling's own table), the scd / steps / time table and wpd's summary.
  scripts/benchmarks/benchmark-tables.py docs/benchmarks/README.md"""
import csv
import json
import os
import re
import subprocess
import sys

readme = sys.argv[1]
root = os.path.dirname(readme)
here = os.path.dirname(os.path.abspath(__file__))


def provenance(results):
    meta = json.load(open(results))["meta"]
    b = meta.get("build", {})
    kernel = b.get("blas_kernel") or "not OpenBLAS"
    return (f"*Made {meta.get('date', '?')} on {b.get('cpu', '?')} ({meta.get('machine', {}).get('cores', '?')} cores), "
            f"BLAS kernel {kernel} ({b.get('blas_kernel_decision', '?')}), {b.get('compiler', '?')} "
            f"{b.get('build_type', '?')}, commit {b.get('commit', '?')[:12]}.*")


def block(name):
    folder = os.path.join(root, name)
    if name == "fekete-scaling" and not os.path.exists(os.path.join(folder, "fekete-scaling.csv")):
        # made before --param-sweep: one sweep per N and a table made from them
        table = open(os.path.join(folder, "time-to-scd6.md")).read().strip()
        return provenance(os.path.join(folder, "N20", "results.json")) + "\n\n" + table
    if name == "fekete-scaling":
        # wpd --param-sweep's table: a row per value of N, a column per solver.
        rows = list(csv.reader(open(os.path.join(folder, "fekete-scaling.csv"))))
        key, setups, values = rows[0][0], rows[0][1:], [r[0] for r in rows[1:]]
        lines = ["| solver | " + " | ".join(f"{key} = {v}" for v in values) + " |",
                 "|---|" + "---|" * len(values)]
        for i, setup in enumerate(setups):
            cells = [f"{float(r[i + 1]):.3g} s" if r[i + 1] else "not reached" for r in rows[1:]]
            lines.append(f"| `{setup}` | " + " | ".join(cells) + " |")
        return provenance(os.path.join(folder, "results.json")) + "\n\n" + "\n".join(lines)
    if name == "kernel-spread":
        return open(os.path.join(folder, "bdf-ndf.md")).read().strip()
    results = os.path.join(folder, "results.json")
    table = subprocess.run([sys.executable, os.path.join(here, "wpd-table.py"), results],
                           check=True, capture_output=True, text=True).stdout.strip()
    summary = open(os.path.join(folder, "summary.txt")).read().strip()
    summary = "\n".join(l for l in summary.splitlines() if not l.startswith("daekit wpd:")).strip()
    return provenance(results) + "\n\nscd / steps / median wall s per tolerance:\n\n" + table + \
        "\n\n```\n" + summary + "\n```"


text = open(readme).read()


def replace(m):
    return f"<!-- generated: {m.group(1)} -->\n{block(m.group(1))}\n<!-- end generated -->"


text = re.sub(r"<!-- generated: ([\w-]+) -->.*?<!-- end generated -->", replace, text, flags=re.S)
open(readme, "w").write(text)
