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
  installed headers of core/, lib/ and the kits that include Eigen: daekit/eigen_abi.hpp too
                          (the libraries and their users pass Eigen objects to each other, so
                          a consumer compiled for another instruction set is refused there),
                          but for headers whose interface only reads the caller's Eigen objects

  check_layering.py <source dir>     exit 1 and one line per broken rule
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](daekit/[^>"]+)[>"]', re.MULTILINE)
LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
SOURCES = {".cpp", ".hpp", ".h"}
EIGEN_INCLUDE = re.compile(r'^\s*#\s*include\s*<Eigen/', re.MULTILINE)
EIGEN_ABI = re.compile(r'^\s*#\s*include\s*"daekit/eigen_abi\.hpp"', re.MULTILINE)


def includes(path):
    return INCLUDE.findall(path.read_text(errors="replace"))


# Installed headers whose interface only reads Eigen objects the caller owns (const
# references): nothing is allocated on one side and freed on the other, so a file compiled
# for any instruction set may include them. The library API (daekit/daekit.hpp) reaches
# Eigen only through these, so programs on it are not refused (the install test builds the
# embedding example for AVX2).
EIGEN_READ_ONLY = {"core/include/daekit/scoring.hpp"}


def installs_with_eigen_objects(rel):
    """Headers installed beside libraries that pass Eigen objects across their boundary."""
    if rel.suffix != ".hpp" or rel.name == "eigen_abi.hpp" or rel.as_posix() in EIGEN_READ_ONLY:
        return False
    parts = rel.parts
    return parts[:2] in {("core", "include"), ("lib", "include")} or (
        parts[0] == "plugins" and len(parts) > 3 and parts[2:4] == ("kit", "include"))


def includes_eigen_without_abi_check(text):
    """The line of the first Eigen include of a header that does not include eigen_abi.hpp."""
    first = EIGEN_INCLUDE.search(text)
    if not first or EIGEN_ABI.search(text):
        return None
    return text.count("\n", 0, first.start()) + 1


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
        if installs_with_eigen_objects(rel):
            line = includes_eigen_without_abi_check(path.read_text(errors="replace"))
            if line:
                broken.append(f"{rel}:{line}: includes Eigen but not daekit/eigen_abi.hpp")
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
