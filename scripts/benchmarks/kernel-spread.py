#!/usr/bin/env python3
"""How much a result moves with the BLAS kernel: each point run under every
OPENBLAS_CORETYPE this CPU can execute, with the spread of scd, mescd and steps.

  scripts/benchmarks/kernel-spread.py                          # the default points (bdf and ndf, issue #15's list)
  scripts/benchmarks/kernel-spread.py --solvers radau5,rodas5p # the same problems with other solvers
  scripts/benchmarks/kernel-spread.py fekete:bdf:1e-8 crank:bdf:1e-7:--init=fix
  scripts/benchmarks/kernel-spread.py --perturb 6              # also: the default kernel at rtol*(1+i*1e-9), i < 6

--perturb separates sensitivity to rounding from sensitivity to anything: if a relative
change of 1e-9 in rtol (far above the LU's rounding in the step decisions, far below
anything a user would notice) spreads a result as much as the kernels do, the kernels
only sample the step sequence's sensitivity; if not, rounding itself steers the solver.

A point is PROBLEM:SOLVER:TOL[:OPTION...] (options with '=' for a space). Prints a
Markdown table; a kernel the CPU cannot run (OpenBLAS does not report it as the
core in use, or the run crashes) is left out and named below the table.
"""
import argparse
import json
import os
import subprocess
import sys

# "default": OPENBLAS_CORETYPE unset, the kernel OpenBLAS picks for this CPU.
KERNELS = ["default", "Prescott", "Nehalem", "Sandybridge", "Haswell", "SkylakeX", "Zen"]
PROBLEMS = [("fekete", t, []) for t in ("1e-6", "1e-7", "1e-8", "1e-9", "1e-10", "1e-11")] + \
           [("tba", "1e-5", []), ("nand", "1e-7", [])] + \
           [("crank", t, ["--init", "fix"]) for t in ("1e-6", "1e-7", "1e-8", "1e-9")] + \
           [("water", "1e-6", []), ("pump", "1e-6", [])]


def run(daekit, kernel, problem, solver, tol, extra, perturbation=0):
    env = dict(os.environ, OPENBLAS_VERBOSE="2")
    env.pop("OPENBLAS_CORETYPE", None)
    if kernel != "default":
        env["OPENBLAS_CORETYPE"] = kernel
    rtol = tol if perturbation == 0 else repr(float(tol) * (1 + perturbation * 1e-9))
    cmd = [daekit, "run", "--problem", problem, "--solver", solver, "--rtol", rtol, "--report", "json"] + extra
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    core = [l.split(":", 1)[1].strip() for l in p.stderr.splitlines() if l.startswith("Core:")]
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        return None, core
    return j, core


def spread(values, relative=False):
    vals = [v for v in values if v is not None]
    if not vals:
        return "-"
    lo, hi = min(vals), max(vals)
    if relative:
        return f"{lo:.0f}-{hi:.0f} ({100 * (hi - lo) / lo:.1f} %)" if lo > 0 else f"{lo}-{hi}"
    return f"{lo:.2f}-{hi:.2f} ({hi - lo:.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("points", nargs="*")
    ap.add_argument("--solvers", default="bdf,ndf")
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--perturb", type=int, default=0, metavar="N",
                    help="add the spread of scd and steps over N runs at rtol*(1+i*1e-9), default kernel")
    ap.add_argument("--daekit", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "daekit"))
    args = ap.parse_args()
    points = []
    for p in args.points:
        parts = p.split(":")
        points.append((parts[0], parts[1], parts[2], [w for o in parts[3:] for w in o.split("=", 1)]))
    if not points:
        points = [(prob, s, tol, extra) for s in args.solvers.split(",") for prob, tol, extra in PROBLEMS]
    kernels = args.kernels.split(",")
    skipped = set()
    header = "| problem | solver | tol | scd min-max (spread) | mescd min-max (spread) | steps min-max (spread) | kernels |"
    rule = "|---|---|---|---|---|---|---|"
    if args.perturb:
        header += " rtol perturbed: scd (spread) | steps (spread) |"
        rule += "---|---|"
    print(header)
    print(rule)
    for problem, solver, tol, extra in points:
        scd, mescd, steps, used, statuses = [], [], [], [], set()
        for k in kernels:
            j, core = run(args.daekit, k, problem, solver, tol, extra)
            if j is None or (core and k != "default" and core[0] != k) or j.get("status") == "crashed":
                skipped.add(k)
                continue
            used.append(k)
            statuses.add(j["status"])
            if j["status"] == "success":
                scd.append(j.get("scd"))
                mescd.append(j.get("mescd"))
            if "stats" in j:  # a refused run (unsupported_problem) has none
                steps.append(j["stats"]["steps"])
        failed = "" if statuses <= {"success"} else " (" + ", ".join(sorted(statuses - {"success"})) + ")"
        opts = " ".join(extra)
        row = (f"| {problem} | {solver}{' ' + opts if opts else ''} | {tol} | {spread(scd)} | {spread(mescd)} | "
               f"{spread(steps, True)}{failed} | {len(used)} |")
        if args.perturb:
            runs = [run(args.daekit, "default", problem, solver, tol, extra, i)[0] for i in range(args.perturb)]
            ok = [j for j in runs if j is not None and j.get("status") == "success"]
            row += f" {spread([j.get('scd') for j in ok])} | {spread([j['stats']['steps'] for j in ok], True)} |"
        print(row, flush=True)
    if skipped:
        print(f"\nKernels this CPU does not run (left out): {', '.join(sorted(skipped))}.")


if __name__ == "__main__":
    sys.exit(main())
