#!/usr/bin/env python3
"""The tables of docs/benchmarks/peers.md from a run of peer-harness.sh.

    scripts/benchmarks/peers-doc-tables.py OUT

OUT is peer-harness.sh's output folder (fekete20.md, crank.md, fekete80.md, the harness's
aggregation). For each case: every curve's median seconds / scd / steps per tolerance, then
per scd the best daekit solver (OpenBLAS's kernel as set for the run; on the crank the
`--init fix` runs) against each peer at the same scd and the best of them.
"""
import re
import sys
from pathlib import Path

CASES = [("fekete20", "Fekete, N = 20 (n = 160)"), ("crank", "Slider crank (n = 24, `--init fix`)"),
         ("fekete80", "Fekete, N = 80 (n = 640)")]
PEERS = [("RADAU", lambda c: c == "RADAU(O3n)"), ("RADAU5", lambda c: c == "RADAU5(O3n)"),
         ("IDA dense", lambda c: c.startswith("IDA-C") and "KLU" not in c),
         ("IDA + KLU", lambda c: c.startswith("IDA-C(KLU"))]


def table_after(lines, title):
    """The rows of the first table after the line starting with `title`: header, rows."""
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[0], [r for r in rows[2:]]


def daekit_name(curve, case):
    """The daekit curve as the doc names it, or None for one the doc leaves out."""
    if not curve.startswith("dk:") or "{" in curve:
        return None
    name = curve[3:]
    if case == "crank":
        if not name.endswith("[fix]"):
            return None
        name = name[: -len("[fix]")]
    return name


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def case_tables(out, case, title):
    lines = (out / f"{case}.md").read_text().splitlines()
    header, medians = table_after(lines, "**" + ("crank N=0" if case == "crank" else
                                                ("fekete N=20" if case == "fekete20" else "fekete N=80")) + ": median")
    _, counts = table_after(lines, "**counts")
    steps = {r[0]: r[1:] for r in counts}
    targets_header, at_scd = table_after(lines, "**curve time at target scd")
    print(f"## {title}\n\nseconds / scd / steps per tolerance:\n")
    print("| curve | " + " | ".join(header[1:]) + " |")
    print("|" + "---|" * len(header))
    peers_first = sorted(medians, key=lambda r: (r[0].startswith("dk:"), 0))
    for row in peers_first:
        name = row[0] if not row[0].startswith("dk:") else daekit_name(row[0], case)
        if name is None:
            continue
        cells = []
        for k, cell in enumerate(row[1:]):
            match = re.fullmatch(r"([0-9.e+-]+)/([0-9.e+-]+)", cell)
            count = steps.get(row[0], [""] * len(row))[k].split("/")[0]
            cells.append(f"{match.group(1)} / {match.group(2)} / {count}" if match else "fails")
        print(f"| {name} | " + " | ".join(cells) + " |")
    # Per scd: the best daekit curve against each peer family.
    times = {r[0]: [number(c) for c in r[1:]] for r in at_scd}
    scds = [h.replace("scd ", "") for h in targets_header[1:]]
    families = [(label, [c for c in times if test(c)]) for label, test in PEERS]
    families = [(label, curves) for label, curves in families if curves]
    print("\n| scd | best daekit | s | " + " | ".join(f"{label} s" for label, _ in families) +
          " | daekit / best peer |")
    print("|" + "---|" * (4 + len(families)))
    for k, scd in enumerate(scds):
        ours = [(times[c][k], daekit_name(c, case)) for c in times if daekit_name(c, case) and times[c][k]]
        theirs = []
        for label, curves in families:
            values = [times[c][k] for c in curves if times[c][k]]
            theirs.append((min(values), label) if values else (None, label))
        if not ours:
            continue
        best, solver = min(ours)
        peer_cells = " | ".join(f"{t:.3g}" if t else "—" for t, _ in theirs)
        reached = [(t, label) for t, label in theirs if t]
        verdict = (f"{min(reached)[1]}: **{best / min(reached)[0]:.2f}**" if reached else "daekit only")
        print(f"| {scd} | {solver} | {best:.3g} | {peer_cells} | {verdict} |")
    print()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    for case, title in CASES:
        if (out / f"{case}.md").exists():
            case_tables(out, case, title)


if __name__ == "__main__":
    main()
