#!/usr/bin/env python3
"""Every code block of the documentation that is meant to compile or run does, against an
installed daekit, as a reader who copies it meets it.

    check_doc_blocks.py <build dir> <source dir> [--no-python]

(installs the build into a temporary prefix, as a reader's `cmake --install` does)

C++ blocks (```cpp): a whole translation unit is built. One that exports a plugin
(DAEKIT_EXPORT_PROBLEM / DAEKIT_EXPORT_SOLVER) becomes a shared object that `daekit
check` must pass; one with main() becomes a program linked to the library that must run
and exit 0. A block marked `<!-- outline -->` on the line before it shows a file's
shape (declarations whose definitions follow elsewhere): it must compile. A block
marked `<!-- excerpt -->` is a part of a larger file and is not built alone.
Python blocks (```python) outside docs/python.md (whose blocks test_module.py runs in
order, as one session) must run, each on its own, unless marked as excerpts.
An unmarked block that is not a whole unit fails: a reader would copy it as one.
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^<!--\s*(excerpt|outline)\s*-->\s*$")


def blocks(path):
    """(language, marker or None, first line number, text) of each fenced block."""
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        marker = None
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0 and MARK.match(lines[k]):
            marker = MARK.match(lines[k]).group(1)
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        yield m.group(1), marker, i + 1, "\n".join(lines[i + 1:j]) + "\n"
        i = j + 1


def run(command, what, env=None, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done.stdout


def compiler_flags(prefix):
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    cflags = shlex.split(run(["pkg-config", "--cflags", "daekit"], "pkg-config", env))
    libs = shlex.split(run(["pkg-config", "--libs", "daekit"], "pkg-config", env))
    return cflags, libs


def check_cpp(text, marker, name, prefix, work, flags):
    cflags, libs = flags
    cxx = os.environ.get("CXX", "c++")
    source = work / f"{name}.cpp"
    source.write_text(text)
    base = [cxx, "-std=c++20", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"] + cflags
    if marker == "outline":
        run(base + ["-fsyntax-only", str(source)], f"{name}: compiling the outline")
        return "compiles"
    if "DAEKIT_EXPORT_PROBLEM" in text or "DAEKIT_EXPORT_SOLVER" in text:
        plugin = work / f"{name}.so"
        run(base + ["-O1", "-fPIC", "-shared", "-Wl,--no-undefined", str(source), "-o", str(plugin)] + libs,
            f"{name}: building the plugin")
        run([str(prefix / "bin" / "daekit"), "check", str(plugin)], f"{name}: daekit check")
        return "a plugin daekit check passes"
    if re.search(r"\bint\s+main\s*\(", text):
        program = work / name
        run(base + ["-O1", str(source), "-o", str(program), f"-Wl,-rpath,{prefix / 'lib'}", "-ldaekit"] + libs,
            f"{name}: building the program")
        run([str(program)], f"{name}: running the program")
        return "a program that runs"
    raise RuntimeError(f"{name}: neither a plugin (an export line) nor a program (main()); mark it "
                       "<!-- excerpt --> or <!-- outline --> if it is not meant to be built alone")


def check_python(text, name, prefix, work):
    script = work / f"{name}.py"
    script.write_text(text)
    env = dict(os.environ, PYTHONPATH=str(prefix / "lib" / "daekit" / "python"))
    run([sys.executable, str(script)], f"{name}: running it", env, cwd=work)
    return "runs"


def main():
    build, source = (pathlib.Path(a).resolve() for a in sys.argv[1:3])
    work = pathlib.Path(tempfile.mkdtemp(prefix="daekit-doc-blocks-"))
    try:
        prefix = work / "prefix"
        run(["cmake", "--install", str(build), "--prefix", str(prefix)], "cmake --install")
        return check_documents(source, prefix, work, "--no-python" not in sys.argv[3:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_documents(source, prefix, work, python=True):
    flags = compiler_flags(prefix)
    documents = sorted((source / "docs").rglob("*.md")) + [source / "README.md"]
    built, skipped, failures = 0, 0, []
    for doc in documents:
        relative = doc.relative_to(source)
        for language, marker, line, text in blocks(doc):
            if language not in ("cpp", "python") or (language == "python" and relative.as_posix() == "docs/python.md"):
                continue
            if language == "python" and not python:
                continue
            name = re.sub(r"[^A-Za-z0-9]+", "_", f"{relative.with_suffix('')}_{line}")
            if marker == "excerpt" or (language == "python" and marker == "outline"):
                skipped += 1
                continue
            try:
                how = (check_cpp(text, marker, name, prefix, work, flags) if language == "cpp"
                       else check_python(text, name, prefix, work))
                print(f"ok   {relative}:{line}  {language}: {how}")
                built += 1
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                failures.append(f"{relative}:{line}: {e}")
    print(f"{built} blocks built or run, {skipped} excerpts")
    for f in failures:
        print("FAILED", f, file=sys.stderr)
    # The documentation has whole examples of each kind: a test that found none tested nothing.
    if built < 5:
        failures.append(f"only {built} blocks were built or run; the documentation has more")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
