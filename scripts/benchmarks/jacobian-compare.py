#!/usr/bin/env python3
"""Jacobians before and after a change of a problem's Jacobian: the same runs with two daekit
builds (e.g. one installed from the commit before), median wall time of 3, and the statistics.

    python3 scripts/benchmarks/jacobian-compare.py OLD_DAEKIT NEW_DAEKIT andrews:radau5:1e-6 emep:rodas5p:1e-4 ...

OLD_DAEKIT `fd` means NEW_DAEKIT with `--jacobian fd`: the difference Jacobian a problem had
before its conversion, from the same build. Further fields: `problem-atol` (pump:radau5:1e-7:problem-atol)
keeps the problem's own atol (the test set's vector) instead of atol = rtol; `init-fix` runs with
--init fix (crank:radau5:1e-9:init-fix, initial values printed to fewer digits than the tolerance).
"""
import json, subprocess, statistics, sys
old, new = sys.argv[1], sys.argv[2]
def run(exe, p, s, tol, own_atol=False, init_fix=False):
    walls=[]; r=None
    extra = ["--init", "fix"] if init_fix else []
    if exe == "fd":
        exe, extra = new, extra + ["--jacobian", "fd"]
    for _ in range(3):
        out = subprocess.run([exe, "run"] + extra + ["--problem", p, "--solver", s, "--rtol", str(tol)] + ([] if own_atol else ["--atol", str(tol)]) + ["--report", "json"], capture_output=True, text=True)
        r = json.loads(out.stdout); walls.append(r.get("wall_s", float("nan")))
    return r, statistics.median(walls)
print("| problem | solver | rtol (atol) | Jacobian | steps | njac | nfev (of which for J) | scd | wall [ms] |")
print("|---|---|---|---|---|---|---|---|---|")
for arg in sys.argv[3:]:
    fields = arg.split(":")
    p, s, tol = fields[0], fields[1], float(fields[2])
    own_atol, init_fix = "problem-atol" in fields[3:], "init-fix" in fields[3:]
    for label, exe in [("differences (before)", old), ("automatic (now)", new)]:
        r, w = run(exe, p, s, tol, own_atol, init_fix)
        st = r.get("stats", {k: 0 for k in ['steps','njac','nfev','nfev_jac']})
        label += '' if r['status'] == 'success' else ' ' + r['status']
        scd = r.get("scd")
        print(f"| {p} | {s}{' --init fix' if init_fix else ''} | {tol:g} ({'problem' if own_atol else '= rtol'}) | {label} | {st['steps']} | {st['njac']} | {st['nfev']} ({st['nfev_jac']}) | {scd if scd is None else round(scd,2)} | {w*1e3:.2f} |")
