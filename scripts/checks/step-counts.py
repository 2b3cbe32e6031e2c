#!/usr/bin/env python3
"""Statistics of every problem x solver x tolerance, as one CSV, and an exact comparison of two.

A refactoring that moves code but must not change behaviour (docs/architecture.md, the family
plugins) is checked by running this before and after and comparing the files: every counter,
the status and the accuracy must be identical, bit for bit.

  scripts/checks/step-counts.py run  [--daekit build/bin/daekit] [--rtol 1e-4,1e-7] [--jobs 2] [--args "..."] OUT.csv
  scripts/checks/step-counts.py diff BEFORE.csv AFTER.csv

A run that exceeds --timeout seconds is recorded as `timeout` and left out of the comparison
(its length depends on the machine's load, not on the code).
"""
import argparse
import concurrent.futures
import csv
import json
import subprocess
import sys

from daekit_list import listed_names

STAT_KEYS = ["steps", "accepted", "rejected", "nfev", "nfev_jac", "njac", "nlu", "nsolve",
             "nnewton", "nnewton_fail", "nsingular", "nmass", "nevents", "nroot_evals",
             "nconstraint_fails", "nfailed_eval", "order_last", "h_last"]
RESULT_KEYS = ["status", "t", "scd", "mescd", "max_abs_error", "max_rel_error"]
# Problems that need a parameter to exist (an FMU file) are not part of the sweep.
SKIPPED_PROBLEMS = {"fmu"}


def run_one(daekit, problem, solver, rtol, timeout, extra):
    row = {"problem": problem, "solver": solver, "rtol": rtol}
    command = [daekit, "run", "--problem", problem, "--solver", solver, "--rtol", rtol,
               "--report", "json"] + extra
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        row["status"] = "timeout"
        return row
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        row["status"] = "no-report(exit %d)" % done.returncode
        return row
    for key in RESULT_KEYS:
        row[key] = repr(report.get(key))
    for key in STAT_KEYS:
        row[key] = repr(report.get("stats", {}).get(key))
    return row


def command_run(args):
    problems = [p for p in listed_names(args.daekit, "problems") if p not in SKIPPED_PROBLEMS]
    solvers = args.solvers.split(",") if args.solvers else listed_names(args.daekit, "solvers")
    tasks = [(p, s, r) for p in problems for s in solvers for r in args.rtol.split(",")]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda t: run_one(args.daekit, *t, args.timeout, args.args.split()), tasks))
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, ["problem", "solver", "rtol"] + RESULT_KEYS + STAT_KEYS)
        writer.writeheader()
        writer.writerows(rows)
    print("%d runs (%d timed out) -> %s" % (len(rows), sum(r["status"] == "timeout" for r in rows),
                                           args.out))


def command_diff(args):
    def load(path):
        with open(path) as f:
            return {(r["problem"], r["solver"], r["rtol"]): r for r in csv.DictReader(f)}
    before, after = load(args.before), load(args.after)
    compared = differing = 0
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a is None or b is None:
            print("only in one file:", *key)
            differing += 1
            continue
        if "timeout" in (a["status"], b["status"]):
            continue
        compared += 1
        changed = [k for k in a if a[k] != b[k]]
        if changed:
            differing += 1
            print(*key, "; ".join("%s %s -> %s" % (k, a[k], b[k]) for k in changed))
    print("%d runs compared, %d differ" % (compared, differing))
    return 1 if differing else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("out")
    run.add_argument("--daekit", default="build/bin/daekit")
    run.add_argument("--rtol", default="1e-4,1e-7")
    run.add_argument("--solvers", default="")
    run.add_argument("--jobs", type=int, default=2)
    run.add_argument("--timeout", type=float, default=60)
    run.add_argument("--args", default="", help="more `daekit run` arguments (a setting the other build lacks)")
    diff = sub.add_parser("diff")
    diff.add_argument("before")
    diff.add_argument("after")
    args = parser.parse_args()
    if args.command == "run":
        command_run(args)
        return 0
    return command_diff(args)


if __name__ == "__main__":
    sys.exit(main())
