#!/usr/bin/env python3
"""Measures events for docs/events.md and prints the tables (markdown):
  1. bouncing ball: worst relative error of the 20 event times against the closed form,
     per solver and tolerance (rtol = atol);
  2. cost of watching: steps, Jacobians, LUs and root evaluations of the watched
     oscillator with and without its root function (same tolerance);
  3. thermostat (stiff switch): worst absolute event-time error per solver (every family
     on the core's root finder, cvode and ida on their interpolants);
  4. root functions faster than the solution (the fast_roots fixture: y' = -0.1 y watched
     by sin(2 pi f t) y on [0, 10]): crossings found with the step ends only (0 samples),
     the default sampling, and declared time scales, against the closed form's count.
usage: python3 scripts/tables/events-tables.py [build-dir]"""
import json, math, os, platform, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "checks"))
from daekit_list import listed_names  # noqa: E402

build = sys.argv[1] if len(sys.argv) > 1 else "build"
daekit = os.path.join(build, "bin", "daekit")
fixtures = os.path.join(build, "tests", "fixtures", "fixture_event_models.so")


def run(*args):
    out = subprocess.run([daekit, "run", "--report", "json", *args], capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"status": "unparsable", "events": [], "stats": {}}


def solvers():
    return listed_names(daekit, "solvers")


def bounce_times():
    e, fall = 0.8, math.sqrt(2 * 10 / 9.81)
    t = [fall]
    for k in range(1, 20):
        t.append(t[-1] + 2 * e**k * fall)
    return t


def main():
    names = solvers()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    model = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"Machine: {model}, {os.cpu_count()} cores; Release build; commit {commit}; "
          f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}; `python3 scripts/tables/events-tables.py {build}`.\n")

    exact = bounce_times()
    tols = ["1e-4", "1e-6", "1e-8", "1e-10"]
    print("| solver | " + " | ".join(f"rtol=atol={t}" for t in tols) + " |")
    print("|---|" + "---|" * len(tols))
    for s in names:
        cells = []
        for tol in tols:
            j = run("--problem", "bouncing_ball", "--solver", s, "--rtol", tol, "--atol", tol)
            ev = [e["t"] for e in j.get("events", [])]
            if j.get("status") != "success" or len(ev) != 20:
                cells.append(f"{j.get('status')} ({len(ev)} events)")
            else:
                cells.append(f"{max(abs(a - b) / b for a, b in zip(ev, exact)):.1e} ({j['stats']['steps']} steps)")
        print(f"| {s} | " + " | ".join(cells) + " |")

    print("\n| solver | steps without / with | Jacobians without / with | LUs without / with | root evaluations |")
    print("|---|---|---|---|---|")
    for s in names:
        base = ["--plugin", fixtures, "--problem", "watched_oscillator", "--solver", s, "--rtol", "1e-8", "--atol", "1e-8"]
        off, on = run(*base, "--param", "functions=none"), run(*base, "--param", "functions=crossing")
        so, sn = off.get("stats", {}), on.get("stats", {})
        print(f"| {s} | {so.get('steps')} / {sn.get('steps')} | {so.get('njac')} / {sn.get('njac')} | "
              f"{so.get('nlu')} / {sn.get('nlu')} | {sn.get('nroot_evals')} |")

    print("\n| solver | events | worst event-time error | scd at tend | steps |")
    print("|---|---|---|---|---|")
    for s in names:
        j = run("--problem", "thermostat", "--solver", s, "--rtol", "1e-8", "--atol", "1e-8")
        ev = [e["t"] for e in j.get("events", [])]
        worst = max((abs(t - (k + 1) * math.log(2)) for k, t in enumerate(ev)), default=float("nan"))
        scd = j.get("scd")
        print(f"| {s} | {len(ev)} | {worst:.1e} | {scd if scd is None else round(scd, 2)} | "
              f"{j.get('stats', {}).get('steps')} ({j.get('status')}) |")

    print("\n| solver | f = 1 at 1e-4, of 19: 0 samples / default / time scale | f = 3 at 1e-4, of 59 | f = 1 and 3 at 1e-8, of 78 |")
    print("|---|---|---|---|")
    for s in names:
        cells = []
        for f, tol in (("1", "1e-4"), ("3", "1e-4"), ("1,3", "1e-8")):
            counts = []
            for extra in (["--event-samples", "0"], [], ["--param", "time_scales=true"]):
                j = run("--plugin", fixtures, "--problem", "fast_roots", "--param", "frequencies=" + f, "--solver", s,
                        "--rtol", tol, "--atol", tol, *extra)
                counts.append(str(j.get("nroots_fired")) if j.get("status") == "success" else j.get("status"))
            cells.append(" / ".join(counts))
        print(f"| {s} | " + " | ".join(cells) + " |")


main()
