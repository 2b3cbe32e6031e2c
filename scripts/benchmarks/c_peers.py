"""What the benchmark scripts that drive peers from C share: the plugin a problem lives
in, the C drivers built against it, and the line that says which build made a table.
Imported by peer-compare.py, small-solves.py, tolerance-windows.py and krylov-vs-c.py (this folder is on
their sys.path as the folder of the script run)."""
import os
import subprocess

here = os.path.dirname(os.path.abspath(__file__))
MODEL_C = os.path.join(here, "radau5-reference", "model.c")  # a problem plugin as a C model
SDK_INCLUDE = os.path.join(here, "..", "..", "sdk", "include")


def plugin_file(daekit, problem):
    """The .so that holds `problem`, as `daekit info` names it; "" when none does."""
    out = subprocess.run([daekit, "info", problem], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("file"):
            return line.split(None, 1)[1].strip()
    return ""


def build_driver(source, out, libraries):
    """A C peer driver (source relative to this folder) linked with model.c, gcc -O2."""
    subprocess.run(["gcc", "-O2", "-I" + SDK_INCLUDE, os.path.join(here, source), MODEL_C, "-o", out]
                   + [f"-l{lib}" for lib in libraries] + ["-ldl", "-lm"], check=True)
    return out


def made_with(daekit):
    """`daekit --version --verbose` on one line: the build, BLAS kernel and CPU of a table."""
    version = subprocess.run([daekit, "--version", "--verbose"], capture_output=True, text=True).stdout.strip()
    return " | ".join(version.splitlines())
