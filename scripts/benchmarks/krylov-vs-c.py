#!/usr/bin/env python3
"""bdf with linear_solver=krylov against plain CVODE and IDA + SPGMR driven from C on the same
model (cvode-reference/cvode_spgmr_driver.c, ida-reference/ida_spgmr_driver.c: the plugin's
f, J v and preconditioner through the C ABI, no daekit code), and daekit's cvode and ida
adapters beside them; reaction3d (matrix-free, a manufactured solution: scd) at three
tolerances. The runs are interleaved (bdf, cvode, CVODE from C, ida, IDA from C, bdf, ...);
"process s" is each process's wall (the problem's creation, and daekit's host, included),
"solve s" the solve's own (daekit's wall_s; the drivers' time in CVode / IDASolve), both
the medians of --repeats; the ratios are of the solve times. Prints one Markdown table and
the build line.

  scripts/benchmarks/krylov-vs-c.py [--daekit build/bin/daekit] [--N 63] [--repeats 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import c_peers

DRIVERS = {"CVODE from C": ("cvode-reference/cvode_spgmr_driver.c", "sundials_cvode"),
           "IDA from C": ("ida-reference/ida_spgmr_driver.c", "sundials_ida")}


def timed(command, env=None):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, done


def daekit_row(daekit, N, solver, rtol):
    command = [daekit, "run", "--problem", "reaction3d", "--param", f"N={N}", "--param", "matrix_free=true",
               "--solver", solver, "--solver-opt", "linear_solver=krylov", "--rtol", rtol, "--report", "json"]
    wall, done = timed(command)
    report = json.loads(done.stdout)
    s = report["stats"]
    return (wall, report["wall_s"]), (report["scd"], s["steps"], s["nnewton"], s["nlin_iters"], s["nprec_setups"])


def c_row(driver, env, rtol):
    wall, done = timed([driver, rtol, rtol], env)
    if done.returncode != 0:
        sys.exit(f"{driver} failed: " + done.stdout + done.stderr)
    scd, steps, newton, krylov, setups, solve = done.stdout.split()
    return (wall, float(solve)), (float(scd), int(steps), int(newton), int(krylov), int(setups))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--daekit", default="build/bin/daekit")
    parser.add_argument("--N", type=int, default=63)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rtols", default="1e-4,1e-6,1e-8")
    args = parser.parse_args()
    rtols = args.rtols.split(",")
    with tempfile.TemporaryDirectory() as work:
        drivers = {name: c_peers.build_driver(source, os.path.join(work, os.path.basename(source)[:-2]),
                                              [library, "sundials_nvecserial", "sundials_sunlinsolspgmr"])
                   for name, (source, library) in DRIVERS.items()}
        env = dict(os.environ, DAEKIT_PLUGIN=c_peers.plugin_file(args.daekit, "reaction3d"),
                   DAEKIT_ENTRY="daekit_v1_entry_reaction3d", DAEKIT_PARAMS=f"N={args.N},matrix_free=true")
        setups = {"bdf": lambda r: daekit_row(args.daekit, args.N, "bdf", r),
                  "cvode (adapter)": lambda r: daekit_row(args.daekit, args.N, "cvode", r),
                  "CVODE from C": lambda r: c_row(drivers["CVODE from C"], env, r),
                  "ida (adapter)": lambda r: daekit_row(args.daekit, args.N, "ida", r),
                  "IDA from C": lambda r: c_row(drivers["IDA from C"], env, r)}
        walls = {(name, r): [] for name in setups for r in rtols}
        counts = {}
        for _ in range(args.repeats):
            for r in rtols:
                for name, run in setups.items():
                    wall, counts[(name, r)] = run(r)
                    walls[(name, r)].append(wall)
    n = 2 * args.N ** 3  # reaction3d: two species per grid point
    print(f"reaction3d N = {args.N} (n = {n}), matrix-free, the problem's preconditioner; wall the median of "
          f"{args.repeats}\n")
    print("| rtol | setup | scd | steps | Newton its | Krylov its | preconditioner setups | process s | solve s "
          "| / CVODE from C | / IDA from C |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def median(name, r, k):
        return statistics.median(w[k] for w in walls[(name, r)])

    for r in rtols:
        cvode, ida = median("CVODE from C", r, 1), median("IDA from C", r, 1)
        for name in setups:
            scd, steps, newton, krylov, setups_done = counts[(name, r)]
            solve = median(name, r, 1)
            print(f"| {r} | {name} | {scd:.2f} | {steps} | {newton} | {krylov} | {setups_done} | "
                  f"{median(name, r, 0):.2f} | {solve:.2f} | {solve / cvode:.2f} | {solve / ida:.2f} |")
    print("\n" + c_peers.made_with(args.daekit))


if __name__ == "__main__":
    main()
