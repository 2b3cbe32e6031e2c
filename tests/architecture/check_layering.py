#!/usr/bin/env python3
"""The folders' dependency rules (docs/architecture.md), checked on every #include.

  sdk/, core/, lib/, python/   never a family's kit: families build on the core, not the reverse
                          (which library may include which is the compiler's: each has its folder
                          and include path, and a problem plugin sees sdk/ alone)
  plugins/<F>/kit/        the core and its own kit only
  plugins/<F>/            the core and its own kit only (no other family's method code)
  host/, problems/        no kit: the host runs plugins through the C ABI, problems need the SDK
  problems/               only the header-only SDK side (abi, sdk), never the core's numerics
  host/farm/              none of its clients (wpd/, ensemble/, check/): they register task kinds

  check_layering.py <source dir>     exit 1 and one line per broken rule
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](daekit/[^>"]+)[>"]', re.MULTILINE)
LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
SOURCES = {".cpp", ".hpp", ".h"}


def includes(path):
    return INCLUDE.findall(path.read_text(errors="replace"))


def family_of(header):
    parts = header.split("/")
    return parts[2] if len(parts) > 2 and parts[1] == "kits" else None


def main(root):
    root = pathlib.Path(root)
    broken = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCES):
        rel = path.relative_to(root)
        top = rel.parts[0]
        if top not in {"sdk", "core", "lib", "python", "plugins", "host", "problems"}:
            continue
        own_family = rel.parts[1] if top == "plugins" and len(rel.parts) > 2 else None
        for header in includes(path):
            family = family_of(header)
            if top != "plugins" and family:
                broken.append(f"{rel}: {top}/ includes the {family} kit ({header})")
            elif top == "plugins" and family and family != own_family:
                broken.append(f"{rel}: the {own_family} family includes the {family} kit ({header})")
            if top == "problems" and not re.match(r"daekit/(abi\.h|sdk/)", header):
                broken.append(f"{rel}: a problem includes {header} (problems build on the SDK only)")
        if rel.parts[:2] == ("host", "farm"):
            for header in LOCAL_INCLUDE.findall(path.read_text(errors="replace")):
                parts = pathlib.PurePosixPath(header).parts
                if len(parts) > 2 and parts[0] == ".." and parts[1] != "farm":
                    broken.append(f"{rel}: the farm includes its client {header} (clients register task kinds)")
    for line in broken:
        print(line)
    print(f"layering: {len(broken)} broken rule(s)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
