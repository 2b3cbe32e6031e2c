#!/usr/bin/env python3
"""daekit's solvers against the peers a fresh machine can have, at equal accuracy.

  scripts/benchmarks/peer-compare.py                                   # the default cases below
  scripts/benchmarks/peer-compare.py fekete:N=20@1e-4,1e-8 crank@1e-6,1e-8 --solvers radauiia,bdf
  R_LIBS=/path/to/native/deSolve scripts/benchmarks/peer-compare.py    # RADAU5 built natively

Peers: Hairer's RADAU5 (deSolve's radau, through scripts/benchmarks/radau5-reference.sh) and plain
SUNDIALS IDA (Debian's, driven by scripts/benchmarks/ida-reference/ida_driver.c, built -O2, with
h0 = 1e-4 as in issue #23's table: with h0 = tol plain IDA fails at t0 on Fekete from
1e-10). Both get the same plugin's f and Jacobian through scripts/benchmarks/radau5-reference/model.c,
so only the integrators differ. Settings as the test set's
drivers: rtol = atol = h0 = tol; crank runs daekit with --init fix (its y0 is not
consistent to the tolerance). Each point is the median of --repeats runs, the runs of
one tolerance interleaved across daekit's solvers; daekit's time is the report's wall_s
(the solve, without starting the process), RADAU5's R's system.time around radau().

Where the problem has no reference for the parameters (Fekete N != 20), one is made first:
daekit's radau5 at rtol = atol = 1e-12, checked against radauiia at 1e-12 (their agreement
is printed: scd above it means nothing); every run, daekit's and RADAU5's, is then scored
against it by the same code (scripts/benchmarks/radau5-reference/model.c's model_scd).

Prints, per case, every point (time / scd / steps) and, for each whole scd both sides
reach, the best daekit solver's time over the best peer's, each interpolated linearly in
(scd, log time) between the two tolerances around it (no extrapolation). Machine, BLAS
kernel and build come from `daekit --version --verbose`.
"""
import argparse
import json
import math
import os
import ctypes
import statistics
import subprocess
import sys
import tempfile

import c_peers

here = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = ["fekete:N=20@1e-4,1e-6,1e-8,1e-10,1e-12", "fekete:N=80@1e-4,1e-6,1e-8,1e-10",
                 "crank@1e-6,1e-8,1e-9,1e-10"]
DAEKIT_EXTRA = {"crank": ["--init", "fix"]}
SCD_TARGETS = {"fekete": range(4, 11), "crank": range(3, 7)}


def parse_case(text):
    head, tols = text.split("@")
    parts = head.split(":")
    return parts[0], parts[1:], tols.split(",")


def run_daekit(daekit, problem, params, solver, tol, scorer=None, h0=True):
    cmd = [daekit, "run", "--problem", problem, "--solver", solver, "--rtol", tol, "--atol", tol,
           "--report", "json", "--timeout", "600"] + DAEKIT_EXTRA.get(problem, [])
    if h0:
        cmd += ["--h0", tol]
    for p in params:
        cmd += ["--param", p]
    with tempfile.TemporaryDirectory() as tmp:
        end = os.path.join(tmp, "end.json")
        if scorer:
            cmd += ["-o", end]
        out = subprocess.run(cmd, capture_output=True, text=True)
        try:
            result = json.loads(out.stdout)
        except json.JSONDecodeError:
            return {"status": "no report", "stats": {}}
        if scorer and result.get("status") == "success":
            result["y_end"] = json.load(open(end))["y"][-1]
            result["scd"] = scorer(result["y_end"])
    return result


def parse_peer_table(text, tols):
    points = {}
    for line in text.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 7:
            continue
        if cells[1].startswith("fails"):
            points[cells[0]] = {"status": cells[1]}
            continue
        scd = float(cells[1]) if cells[1] not in ("NA", "nan") else None
        points[cells[0]] = {"scd": scd, "steps": int(cells[2]), "seconds": float(cells[6])}
    # The peers print tolerances as %g: map them back to ours.
    return {tol: points.get(f"{float(tol):g}") for tol in tols}


def run_ida(daekit, problem, params, tols, repeats, workdir):
    driver = os.path.join(workdir, "ida_driver")
    if not os.path.exists(driver):
        c_peers.build_driver(os.path.join("ida-reference", "ida_driver.c"), driver,
                             ["sundials_ida", "sundials_nvecserial", "sundials_sunlinsoldense",
                              "sundials_sunmatrixdense"])
    env = dict(os.environ, DAEKIT_PLUGIN=c_peers.plugin_file(daekit, problem), DAEKIT_ENTRY=f"daekit_v1_entry_{problem}",
               DAEKIT_PARAMS=",".join(params),
               LD_LIBRARY_PATH=os.path.join(os.path.dirname(daekit), "..", "lib"))
    out = subprocess.run([driver, str(repeats), "1e-4"] + tols, capture_output=True, text=True, env=env)
    return parse_peer_table(out.stdout, tols)


class Scorer:
    """model.c's scd against an external reference file, loaded through ctypes."""

    def __init__(self, daekit, problem, params, reference_file, workdir):
        plugin = c_peers.plugin_file(daekit, problem)
        lib = os.path.join(workdir, f"model-{problem}-{'-'.join(params)}.so")  # one library per case: model.c loads once
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + c_peers.SDK_INCLUDE, c_peers.MODEL_C, "-o", lib,
                        "-ldl", "-lm"], check=True)
        os.environ.update(DAEKIT_PLUGIN=plugin, DAEKIT_ENTRY=f"daekit_v1_entry_{problem}",
                          DAEKIT_PARAMS=",".join(params), DAEKIT_REFERENCE=reference_file)
        self.model = ctypes.CDLL(lib)

    def __call__(self, y):
        values = (ctypes.c_double * len(y))(*y)
        scd = ctypes.c_double()
        self.model.model_scd(values, ctypes.byref(scd))
        return scd.value


def has_reference(daekit, problem, params):
    cmd = [daekit, "info", problem] + [a for p in params for a in ("--param", p)]
    return "none for these parameters" not in subprocess.run(cmd, capture_output=True, text=True).stdout


def make_reference(daekit, problem, params, path):
    """radau5 at 1e-12 written to path; returns radauiia's end at 1e-12 for the cross-check."""
    runs = [run_daekit(daekit, problem, params, s, "1e-12", scorer=lambda y: None, h0=False)
            for s in ("radau5", "radauiia")]
    if any(r.get("status") != "success" for r in runs):
        return None
    with open(path, "w") as f:
        f.write("\n".join(repr(v) for v in runs[0]["y_end"]) + "\n")
    return runs[1]["y_end"]


def run_radau5(problem, params, tols, repeats):
    env = dict(os.environ, REPEATS=str(repeats), DAEKIT_PARAMS=",".join(params))
    out = subprocess.run(["bash", os.path.join(here, "radau5-reference.sh"), problem] + tols, capture_output=True,
                         text=True, env=env)
    return parse_peer_table(out.stdout, tols)


def seconds_at(curve, scd):
    """Time at this scd on one solver's curve [(scd, seconds)] by tolerance; None outside it."""
    best = None
    for (s0, t0), (s1, t1) in zip(curve, curve[1:]):
        lo, hi = min(s0, s1), max(s0, s1)
        if lo <= scd <= hi and s1 != s0:
            f = (scd - s0) / (s1 - s0)
            t = math.exp(math.log(t0) + f * (math.log(t1) - math.log(t0)))
            best = t if best is None else min(best, t)
        elif s0 == scd or s1 == scd:
            t = t0 if s0 == scd else t1
            best = t if best is None else min(best, t)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="PROBLEM[:key=value...]@TOL,TOL,...")
    ap.add_argument("--solvers", default="radauiia,radau5,bdf,rodas5p,ida")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--daekit", default=os.path.join(here, "..", "..", "build", "bin", "daekit"))
    args = ap.parse_args()
    solvers = args.solvers.split(",")
    version = subprocess.run([args.daekit, "--version", "--verbose"], capture_output=True, text=True).stdout.strip()
    radau5_build = f"deSolve from R_LIBS={os.environ['R_LIBS']}" if os.environ.get("R_LIBS") else \
        "Debian's r-cran-desolve (gfortran -O2)"
    print(f"Machine and build:\n\n```\n{version}\n```\n\nRADAU5: {radau5_build}. IDA: Debian's SUNDIALS, "
          f"scripts/benchmarks/ida-reference/ida_driver.c with gcc -O2, h0 = 1e-4. Median of {args.repeats} runs.\n")
    workdir = tempfile.mkdtemp()
    for case in args.cases or DEFAULT_CASES:
        problem, params, tols = parse_case(case)
        name = problem + (" " + " ".join(params) if params else "")
        scorer, note = None, ""
        os.environ.pop("DAEKIT_REFERENCE", None)
        if not has_reference(args.daekit, problem, params):
            reference_file = os.path.join(workdir, f"{problem}-{'-'.join(params)}.ref")
            check = make_reference(args.daekit, problem, params, reference_file)
            if check is not None:
                scorer = Scorer(args.daekit, problem, params, reference_file, workdir)
                note = (f"Reference: daekit radau5 at rtol = atol = 1e-12; radauiia at 1e-12 scores {scorer(check):.2f} "
                        f"against it (scd above that says nothing).\n\n")
        results = {s: {} for s in solvers}
        for tol in tols:
            runs = {s: [] for s in solvers}
            for _ in range(args.repeats):  # interleaved: one run of each solver per round
                for s in solvers:
                    runs[s].append(run_daekit(args.daekit, problem, params, s, tol, scorer))
            for s in solvers:
                ok = [r for r in runs[s] if r.get("status") == "success"]
                if len(ok) == len(runs[s]):
                    results[s][tol] = {"scd": ok[0].get("scd"), "steps": ok[0]["stats"]["steps"],
                                       "seconds": statistics.median(r["wall_s"] for r in ok)}
                else:
                    results[s][tol] = {"status": runs[s][0].get("status")}
        peers = {"RADAU5": run_radau5(problem, params, tols, args.repeats),
                 "IDA": run_ida(args.daekit, problem, params, tols, args.repeats, workdir)}

        print(f"## {name}\n\n{note}seconds / scd / steps per tolerance:\n")
        print("| solver | " + " | ".join(tols) + " |")
        print("|---|" + "---|" * len(tols))
        curves = {}
        for label, table in [(s, results[s]) for s in solvers] + list(peers.items()):
            cells, curve = [], []
            for tol in tols:
                p = table.get(tol)
                if not p or "seconds" not in p:
                    cells.append(p.get("status", "fails") if p else "fails")
                    continue
                scd = p["scd"]
                cells.append(f"{p['seconds']:.3f} / {scd:.2f} / {p['steps']}" if scd is not None
                             else f"{p['seconds']:.3f} / - / {p['steps']}")
                if scd is not None:
                    curve.append((scd, p["seconds"]))
            curves[label] = curve
            print(f"| {label} | " + " | ".join(cells) + " |")
        print("\nbest daekit solver over the best peer at equal scd:\n")
        print("| scd | best daekit | s | best peer | s | ratio |")
        print("|---|---|---|---|---|---|")
        for target in SCD_TARGETS.get(problem, range(3, 11)):
            ours = [(t, s) for s in solvers if (t := seconds_at(curves[s], target)) is not None]
            theirs = [(t, s) for s in peers if (t := seconds_at(curves[s], target)) is not None]
            if not ours and not theirs:
                continue
            o = min(ours) if ours else None
            p = min(theirs) if theirs else None
            ratio = f"{o[0] / p[0]:.2f}" if o and p else ("daekit only" if o else "peer only")
            print(f"| {target} | {o[1] if o else '-'} | {f'{o[0]:.3f}' if o else '-'} | {p[1] if p else '-'} | "
                  f"{f'{p[0]:.3f}' if p else '-'} | {ratio} |")
        print(flush=True)


if __name__ == "__main__":
    sys.exit(main())
