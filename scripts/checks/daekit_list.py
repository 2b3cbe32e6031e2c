"""The plugin names `daekit list` prints, for the measurement scripts beside this file."""
import subprocess


def listed_names(daekit, section):
    """Names under `solvers:` or `problems:` in `daekit list`, sorted, each once (a plugin
    found in two folders is listed twice)."""
    out = subprocess.run([daekit, "list"], capture_output=True, text=True, check=True).stdout
    found, inside = [], False
    for line in out.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            inside = line == section + ":"
        elif inside and line.startswith("  ") and line[2:3].isalpha():
            found.append(line.split()[0])
    return sorted(set(found))
