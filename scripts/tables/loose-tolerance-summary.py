#!/usr/bin/env python3
"""Summarises the output of loose-tolerance-grid.sh (lines `problem solver tol status
steps scd mescd`) as docs/benchmarks/loose-tolerances/README.md shows it: the statuses,
per problem the scored successes and how many have scd < 0, mescd < 0, mescd < -1, and
the worst rows (mescd < -2).
usage: python3 scripts/tables/loose-tolerance-summary.py GRID.txt"""
import collections, sys


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def main(path):
    rows = [line.split() for line in open(path) if len(line.split()) == 7]
    rows = [r for r in rows if r[3] not in ("refused", "unsupported_problem")]
    statuses = collections.Counter(r[3] for r in rows)
    scored = [r for r in rows if r[3] == "success" and number(r[5]) is not None]
    print(f"{len(rows)} runs: " + ", ".join(f"{s} {c}" for s, c in statuses.most_common()) +
          f"; {len(scored)} successes on problems with a reference.\n")
    by_problem = collections.defaultdict(list)
    for r in scored:
        by_problem[r[0]].append(r)
    print("| problem | scored successes | scd < 0 | mescd < 0 | mescd < -1 |")
    print("|---|---|---|---|---|")
    quiet, quiet_runs = 0, 0
    for problem in sorted(by_problem):
        runs = by_problem[problem]
        scd_neg = sum(number(r[5]) < 0 for r in runs)
        mescd_neg = sum(number(r[6]) < 0 for r in runs)
        mescd_bad = sum(number(r[6]) < -1 for r in runs)
        if scd_neg == mescd_neg == 0:
            quiet, quiet_runs = quiet + 1, quiet_runs + len(runs)
            continue
        print(f"| {problem} | {len(runs)} | {scd_neg} | {mescd_neg} | {mescd_bad} |")
    print(f"| all others ({quiet} problems) | {quiet_runs} | 0 | 0 | 0 |\n")
    worst = sorted((r for r in scored if number(r[6]) < -2), key=lambda r: number(r[6]))
    print("Worst (mescd < -2):\n")
    print("| problem | solver | rtol | steps | scd | mescd |")
    print("|---|---|---|---|---|---|")
    for r in worst:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[4]} | {number(r[5]):.2f} | {number(r[6]):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1])
