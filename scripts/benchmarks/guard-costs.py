#!/usr/bin/env python3
"""What the run-time guards of docs/solvers/README.md cost, for that page's tables:
  1. the derivative check: the solve's own time (the report's wall_s) with
     --derivative-check on and off, interleaved medians, on the test set's problems that
     supply a Jacobian, per solver; and the f evaluations it adds;
  2. event sampling: root evaluations and time with --event-samples 10 (the default) and
     0, on the problems with root functions.
usage: python3 scripts/benchmarks/guard-costs.py [build-dir] [repetitions]"""
import json, os, statistics, subprocess, sys

build = sys.argv[1] if len(sys.argv) > 1 else "build"
repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 5
daekit = os.path.join(build, "bin", "daekit")
fixtures = os.path.join(build, "tests", "fixtures", "fixture_event_models.so")

JACOBIAN_PROBLEMS = ["rober", "hires", "pollu", "orego", "e5", "vdpol", "chemakzo", "fekete", "crank", "pump",
                     "medakzo", "ringmod", "nand", "tba", "wheel"]
SOLVERS = ["rodas5p", "radau5", "bdf", "ida"]
EVENT_PROBLEMS = [("bouncing_ball", []), ("thermostat", []),
                  ("watched_oscillator", ["--plugin", fixtures]), ("fast_roots", ["--plugin", fixtures])]


def run(args):
    out = subprocess.run([daekit, "run", "--report", "json", *args], capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return None


def interleaved(a_args, b_args):
    """Median solve times of two settings run alternately, and the last report of each."""
    times = {0: [], 1: []}
    last = {}
    for _ in range(repetitions):
        for k, args in enumerate((a_args, b_args)):
            r = run(args)
            if r is None or r["status"] not in ("success", "stopped_by_event"):
                return None
            times[k].append(r["wall_s"])
            last[k] = r
    return statistics.median(times[0]), statistics.median(times[1]), last[0], last[1]


def derivative_check_table():
    print("| problem | solver | checks | extra f evaluations | f evaluations | time on / off |")
    print("|---|---|---:|---:|---:|---:|")
    ratios, totals = [], {0: [], 1: []}
    for p in JACOBIAN_PROBLEMS:
        for s in SOLVERS:
            base = ["--problem", p, "--solver", s] + (["--init", "fix"] if p == "crank" else [])
            m = interleaved(base + ["--derivative-check", "on"], base + ["--derivative-check", "off"])
            if m is None:
                print(f"| {p} | {s} | - | - | - | failed or refused |")
                continue
            on, off, r_on, r_off = m
            if r_on["stats"]["nderivative_checks"] == 0:
                continue  # no supplied Jacobian used by this solver
            extra = r_on["stats"]["nfev"] - r_off["stats"]["nfev"]
            ratios.append(on / off)
            totals[0].append(on)
            totals[1].append(off)
            print(f"| {p} | {s} | {r_on['stats']['nderivative_checks']} | {extra} | {r_off['stats']['nfev']} | "
                  f"{on / off:.3f} |")
    if ratios:
        print(f"\nper run: median time ratio on/off {statistics.median(ratios):.3f}, {len(ratios)} runs; "
              f"all runs together (sum of the medians): on/off {sum(totals[0]) / sum(totals[1]):.4f}")


def sampling_table():
    print("| problem | solver | root evaluations 10 / 0 samples | events 10 / 0 | time 10 / 0 |")
    print("|---|---|---:|---:|---:|")
    for p, extra in EVENT_PROBLEMS:
        for s in SOLVERS:
            base = extra + ["--problem", p, "--solver", s, "--rtol", "1e-6", "--atol", "1e-6"]
            m = interleaved(base, base + ["--event-samples", "0"])
            if m is None:
                print(f"| {p} | {s} | - | - | failed |")
                continue
            t10, t0, r10, r0 = m
            print(f"| {p} | {s} | {r10['stats']['nroot_evals']} / {r0['stats']['nroot_evals']} | "
                  f"{r10['nevents']} / {r0['nevents']} | {t10 / t0:.2f} |")


if __name__ == "__main__":
    print("## derivative check\n")
    derivative_check_table()
    print("\n## event sampling\n")
    sampling_table()
