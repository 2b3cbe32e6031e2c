#!/usr/bin/env python3
"""Sensitivities side by side with CVODES and IDAS driven from C (docs/sensitivities.md).

Robertson to t = 4e5, dy/dk1..k3 (9 entries), every solver with the sensitivities in the
error test: the ODE (rober) beside CVODES, the index-1 DAE with the conservation law
(rober_dae) beside IDAS. Accuracy: ssd = -log10 of the largest error of an entry relative to its
column's largest reference entry; reference: central differences of radauiia solves at
rtol 1e-13 with k moved by 1e-4 of itself. Time: medians of --runs interleaved runs
(CVODES: CLOCK_MONOTONIC around its solve; daekit: the report's wall_s).
Usage: sensitivity-peers.py --daekit build/bin/daekit --cvodes /tmp/cvodes_rober --idas /tmp/idas_rober [--runs 5]
(build the drivers: gcc -O2 -o /tmp/cvodes_rober scripts/benchmarks/cvodes-reference/cvodes_rober.c
 -lsundials_cvodes -lsundials_nvecserial -lsundials_sunmatrixdense -lsundials_sunlinsoldense -lm, and
 gcc -O2 -o /tmp/idas_rober scripts/benchmarks/idas-reference/idas_rober.c -lsundials_idas ... the same)
"""
import argparse
import json
import math
import statistics
import subprocess

K = {"k1": 0.04, "k2": 3e7, "k3": 1e4}
TEND = "4e5"
# problem, the peer's name and its --option, the daekit solvers beside it
TABLES = [("rober", "CVODES (C)", "cvodes", ["bdf", "radau5", "rodas5p", "cvode", "ida"]),
          ("rober_dae", "IDAS (C)", "idas", ["bdf", "radau5", "rodas5p", "ida"])]


def daekit_run(daekit, args, problem="rober"):
    out = subprocess.run([daekit, "run", "--problem", problem, "--tend", TEND, "--report", "json"] + args,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def reference(daekit):
    ref = []
    for name, value in K.items():
        ends = []
        for sign in (1, -1):
            r = daekit_run(daekit, ["--solver", "radauiia", "--rtol", "1e-13", "--atol", "1e-20", "--output",
                                    "/tmp/sens-peer.csv", "--param", f"{name}={value * (1 + sign * 1e-4)!r}"])
            assert r["status"] == "success"
            last = open("/tmp/sens-peer.csv").read().strip().splitlines()[-1].split(",")
            ends.append([float(v) for v in last[1:4]])
        ref.append([(a - b) / (2e-4 * value) for a, b in zip(*ends)])
    return ref  # ref[k][i]


def ssd(s, ref):  # s[k][i]
    worst = 0.0
    for k in range(3):
        scale = max(abs(v) for v in ref[k])
        worst = max(worst, max(abs(s[k][i] - ref[k][i]) / scale for i in range(3)))
    return -math.log10(max(worst, 1e-300))


def peer_run(binary, rtol, atol):
    lines = subprocess.run([binary, repr(rtol), repr(atol), TEND], capture_output=True, text=True).stdout.split("\n")
    s = [[0.0] * 3 for _ in range(3)]
    for line in lines:
        if line.startswith("S "):
            _, i, k, v = line.split()
            s[int(k)][int(i)] = float(v)
    time = float(next(l for l in lines if l.startswith("time=")).split()[1])
    return time, s, next(l for l in lines if l.startswith("steps=")).split()[1]


def table(a, ref, problem, peer, binary, solvers):
    print(f"\n{problem} beside {peer}\n")
    print("| rtol | solver | ssd | time (ms) | steps |")
    print("|---|---|---|---|---|")
    for rtol in (1e-6, 1e-7, 1e-8, 1e-9, 1e-10):
        atol = rtol * 1e-6
        times = {name: [] for name in [peer] + solvers}
        result = {}
        for _ in range(a.runs):  # interleaved: each run of each solver in turn
            time, s, steps = peer_run(binary, rtol, atol)
            times[peer].append(time)
            result[peer] = (ssd(s, ref), steps)
            for solver in solvers:
                r = daekit_run(a.daekit, ["--solver", solver, "--rtol", repr(rtol), "--atol", repr(atol),
                                          "--sensitivities", "all", "--sens-error-control", "on"], problem)
                if r["status"] != "success":
                    result[solver] = (float("nan"), r["status"])
                    continue
                times[solver].append(r["wall_s"])
                m = r["sensitivities"]["at_tend"]
                result[solver] = (ssd([[m[i][k] for i in range(3)] for k in range(3)], ref), r["stats"]["steps"])
        for name in times:
            t = statistics.median(times[name]) * 1e3 if times[name] else float("nan")
            print(f"| {rtol:g} | {name} | {result[name][0]:.2f} | {t:.2f} | {result[name][1]} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--daekit", default="build/bin/daekit")
    ap.add_argument("--cvodes", default="/tmp/cvodes_rober")
    ap.add_argument("--idas", default="/tmp/idas_rober")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    ref = reference(a.daekit)
    for problem, peer, option, solvers in TABLES:
        table(a, ref, problem, peer, getattr(a, option), solvers)


if __name__ == "__main__":
    main()
