#!/usr/bin/env python3
"""bdf with linear_solver=krylov against plain CVODE + SPGMR driven from C on the same model
(cvode-reference/cvode_spgmr_driver.c: the plugin's f, J v and preconditioner through the C
ABI, no daekit code), and daekit's cvode adapter beside them; reaction3d (matrix-free, a
manufactured solution: scd) at three tolerances. The runs are interleaved (bdf, cvode,
CVODE from C, bdf, ...); wall is each process's, the problem's creation included for all
three, the median of --repeats. Prints one Markdown table and the build line.

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

LIBRARIES = ["sundials_cvode", "sundials_nvecserial", "sundials_sunlinsolspgmr"]


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
    return wall, (report["scd"], s["steps"], s["nnewton"], s["nlin_iters"], s["nprec_setups"])


def c_row(driver, env, rtol):
    wall, done = timed([driver, rtol, rtol], env)
    if done.returncode != 0:
        sys.exit("cvode_spgmr_driver failed: " + done.stdout + done.stderr)
    scd, steps, newton, krylov, setups, _ = done.stdout.split()
    return wall, (float(scd), int(steps), int(newton), int(krylov), int(setups))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--daekit", default="build/bin/daekit")
    parser.add_argument("--N", type=int, default=63)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rtols", default="1e-4,1e-6,1e-8")
    args = parser.parse_args()
    rtols = args.rtols.split(",")
    with tempfile.TemporaryDirectory() as work:
        driver = c_peers.build_driver("cvode-reference/cvode_spgmr_driver.c", os.path.join(work, "cvode_spgmr"),
                                      LIBRARIES)
        env = dict(os.environ, DAEKIT_PLUGIN=c_peers.plugin_file(args.daekit, "reaction3d"),
                   DAEKIT_ENTRY="daekit_v1_entry_reaction3d", DAEKIT_PARAMS=f"N={args.N},matrix_free=true")
        setups = {"bdf": lambda r: daekit_row(args.daekit, args.N, "bdf", r),
                  "cvode (adapter)": lambda r: daekit_row(args.daekit, args.N, "cvode", r),
                  "CVODE from C": lambda r: c_row(driver, env, r)}
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
    print("| rtol | setup | scd | steps | Newton its | Krylov its | preconditioner setups | wall s | / CVODE from C |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rtols:
        reference = statistics.median(walls[("CVODE from C", r)])
        for name in setups:
            scd, steps, newton, krylov, setups_done = counts[(name, r)]
            wall = statistics.median(walls[(name, r)])
            print(f"| {r} | {name} | {scd:.2f} | {steps} | {newton} | {krylov} | {setups_done} | {wall:.2f} | "
                  f"{wall / reference:.2f} |")
    print("\n" + c_peers.made_with(args.daekit))


if __name__ == "__main__":
    main()
