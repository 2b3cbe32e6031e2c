#!/usr/bin/env python3
"""Summary tables (steps / scd / wall s at 1e-4, 1e-6, 1e-8, 1e-10) from the output of
scripts/tables/rosenbrock-tables.sh, and that output spliced into docs/solvers/rosenbrock.md:
    bash scripts/tables/rosenbrock-tables.sh > tables.md
    python3 scripts/tables/rosenbrock-doc-tables.py tables.md docs/solvers/rosenbrock.md
"""
import re
import sys

full = open(sys.argv[1]).read()
doc_path = sys.argv[2]
doc = open(doc_path).read()

rows = {}  # (method, problem) -> {tol: (status, scd, steps, wall)}
for block in re.split(r"^#### ", full, flags=re.M)[1:]:
    head, _, body = block.partition("\n")
    method, _, problem = head.strip().partition(" on ")
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and cells[0].startswith("1e"):
            rows.setdefault((method, problem), {})[cells[0]] = (cells[1], cells[2], cells[4], cells[9])

methods = []
for block in re.split(r"^#### ", full, flags=re.M)[1:]:
    m = block.split(" on ")[0].strip()
    if m not in methods:
        methods.append(m)


def summary(problem):
    out = ["| method | 1e-4 | 1e-6 | 1e-8 | 1e-10 |", "|---|---|---|---|---|"]
    for m in methods:
        cells = []
        for tol in ("1e-4", "1e-6", "1e-8", "1e-10"):
            status, scd, steps, wall = rows.get((m, problem), {}).get(tol, ("-", "", "", ""))
            cells.append(f"{steps} / {scd} / {wall}" if status == "success" else status)
        out.append(f"| `{m}` | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def replace_table(text, heading, table):
    start = text.index(heading)
    t0 = text.index("| method |", start)
    t1 = text.index("\n\n", t0)
    return text[:t0] + table.rstrip("\n") + text[t1:]


doc = replace_table(doc, "### Fekete (index 2, n = 160)", summary("fekete"))
doc = replace_table(doc, "### Robertson (ODE)", summary("rober"))
doc = doc[: doc.index("## Full tables")] + "## Full tables\n\n" + full.strip() + "\n"
open(doc_path, "w").write(doc)
