#!/usr/bin/env python3
"""The time of one small solve, in-process, against CVODE driven from C on the same plugin.

  scripts/benchmarks/small-solves.py                       # rober, hires, pollu at 1e-6 and 1e-8
  scripts/benchmarks/small-solves.py --cases rober@1e-8 --solvers rodas5p,radau5 --rounds 7

Where many small solves are the workload (a fit, a parameter sweep in Python), what counts
is the time of one whole solve: set-up, integration to tend, end point. daekit's side is
build/bin/solve-latency (daekit::solve in this process, the plugins loaded once); the peer
is plain SUNDIALS CVODE (BDF, its dense LU, the problem's analytic Jacobian, everything
made and freed per solve), scripts/benchmarks/cvode-reference/cvode_driver.c built here
with gcc -O2 against Debian's SUNDIALS, reaching the same plugin's f and Jacobian through
the C ABI (scripts/benchmarks/radau5-reference/model.c): only the integrators differ.
rtol = tol, atol = the problem's suggestion (rober: 1e-4 tol), else tol.

Each point: --rounds rounds, each running every setup once in a fresh shuffled order,
each run --repeats solves whose median is taken; the table gives the median over rounds
and the best daekit setup's time over CVODE's. scd is the test set's, from the problem's
reference. The first lines say which machine, BLAS kernel and build made it.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile

import c_peers

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
ATOL_SCALE = {"rober": 1e-4}  # the test set's settings (docs/problems.md)


def peer_plugin(daekit, problem):
    plugin = c_peers.plugin_file(daekit, problem)
    if not plugin:
        sys.exit(f"small-solves: no plugin holds problem {problem}")
    return plugin


def row(text):
    """The driver's Markdown row: rtol | atol | scd | steps | f | J | LU | median us | min us."""
    cells = [c.strip() for c in text.strip().split("|")[1:-1]]
    if len(cells) < 9 or cells[2].startswith("fails"):
        return {"failed": cells[2] if len(cells) > 2 else text.strip()}
    return {"scd": float(cells[2]), "steps": int(cells[3]), "us": float(cells[7])}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default="rober@1e-6,1e-8 hires@1e-6,1e-8 pollu@1e-6,1e-8")
    ap.add_argument("--solvers", default="rodas5p,radau5,bdf,cvode")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=200, help="solves per run (their median is the run's time)")
    ap.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    a = ap.parse_args()
    bindir = os.path.abspath(a.bin)
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(bindir, "..", "lib"))
    daekit = os.path.join(bindir, "daekit")
    print("Made with: " + c_peers.made_with(daekit))
    print("Command: scripts/benchmarks/small-solves.py " + " ".join(sys.argv[1:]) + "\n")
    print("| problem | tol | setup | scd | steps | microseconds per solve | / CVODE from C |")
    print("|---|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as workdir:
        driver = c_peers.build_driver(os.path.join("cvode-reference", "cvode_driver.c"),
                                      os.path.join(workdir, "cvode_driver"),
                                      ["sundials_cvode", "sundials_nvecserial", "sundials_sunlinsoldense",
                                       "sundials_sunmatrixdense"])
        for case in a.cases.split():
            problem, tols = case.split("@")
            peer_env = dict(env, DAEKIT_PLUGIN=peer_plugin(daekit, problem), DAEKIT_ENTRY=f"daekit_v1_entry_{problem}")
            for tol in tols.split(","):
                atol = repr(float(tol) * ATOL_SCALE.get(problem, 1.0))
                setups = {"CVODE from C": [driver, str(a.repeats), tol, atol]}
                for s in a.solvers.split(","):
                    setups[f"daekit {s}"] = [os.path.join(bindir, "solve-latency"), problem, s, str(a.repeats), tol, atol]
                runs = {name: [] for name in setups}
                for _ in range(a.rounds):
                    order = list(setups)
                    random.shuffle(order)
                    for name in order:
                        out = subprocess.run(setups[name], capture_output=True, text=True,
                                             env=peer_env if name == "CVODE from C" else env).stdout
                        runs[name].append(row(out))
                peer = statistics.median(r["us"] for r in runs["CVODE from C"]) if all(
                    "us" in r for r in runs["CVODE from C"]) else None
                for name, results in runs.items():
                    if any("failed" in r for r in results):
                        print(f"| {problem} | {tol} | {name} | {results[0].get('failed', 'fails')} | | | |")
                        continue
                    us = statistics.median(r["us"] for r in results)
                    ratio = f"{us / peer:.2f}" if peer else ""
                    print(f"| {problem} | {tol} | {name} | {results[0]['scd']:.2f} | {results[0]['steps']} | {us:.0f} | "
                          f"{ratio} |", flush=True)


if __name__ == "__main__":
    main()
