#!/usr/bin/env python3
"""The longest functions of the C++ sources, by Universal Ctags' extents (lambdas count
inside their enclosing function). #39 asks every function to fit in 120 lines.

  scripts/checks/function-lengths.py [--limit 120] [--top 20] [DIR ...]   (default: sdk core lib python plugins host problems)

Prints the functions longer than --limit (or the --top longest) and exits 1 when any
is longer than --limit.
"""
import argparse
import subprocess
import sys


def functions(paths):
    # Universal Ctags (Debian's universal-ctags, scripts/setup.sh installs it) gives each
    # function's first and last line.
    out = subprocess.run(["ctags", "-R", "--languages=C++", "--c++-kinds=f", "--fields=+ne", "-o", "-", *paths],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) < 4 or parts[0].startswith("__anon"):
            continue
        fields = dict(p.split(":", 1) for p in parts[3:] if ":" in p)
        if "line" in fields and "end" in fields:
            yield int(fields["end"]) - int(fields["line"]) + 1, parts[1], int(fields["line"]), parts[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=120)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("dirs", nargs="*", default=["sdk", "core", "lib", "python", "plugins", "host", "problems"])
    args = ap.parse_args()
    found = sorted(functions(args.dirs), reverse=True)
    for length, file, line, name in found[: max(args.top, sum(1 for f in found if f[0] > args.limit))]:
        print(f"{length:5d}  {file}:{line}  {name}")
    over = [f for f in found if f[0] > args.limit]
    print(f"{len(found)} functions, {len(over)} longer than {args.limit} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
