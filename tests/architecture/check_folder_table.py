#!/usr/bin/env python3
"""docs/architecture.md's "What lives where" table matches the folders: every folder a row
names exists, every top-level source folder has a row, and every subfolder of a row's
folder is named in that row (as `name/`), so the table cannot fall behind a move.

  check_folder_table.py <source dir>     exit 1 and one line per mismatch
"""
import pathlib
import re
import sys

TOP_LEVEL = {"sdk", "core", "lib", "python", "plugins", "problems", "host", "tests", "scripts", "docs", "cmake"}
ROW = re.compile(r"^\| `([a-z_]+/)(?:<[a-z]+>/|[a-z_]+/)?` \|(.*)$")


def main(root):
    root = pathlib.Path(root)
    text = (root / "docs" / "architecture.md").read_text()
    table = text[text.index("## What lives where"):]
    table = table[: table.index("\n\n", table.index("|---"))]
    rows = {}
    for line in table.splitlines():
        m = ROW.match(line)
        if m:
            folder = line.split("`")[1]
            rows[folder] = m.group(2)
    broken = []
    for folder, text_of_row in rows.items():
        base = folder.split("<")[0]
        if not (root / base).is_dir():
            broken.append(f"the table names {folder}, which does not exist")
            continue
        if "<" in folder or folder.count("/") > 1:
            continue
        for sub in sorted(p.name for p in (root / base).iterdir() if p.is_dir() and not p.name.startswith(".")):
            if f"{sub}/" not in text_of_row and f"{folder}{sub}/" not in rows:
                broken.append(f"{base}{sub}/ is not named in the row of {folder}")
    for top in sorted(TOP_LEVEL - {"cmake"}):
        if not any(f.split("/")[0] == top for f in rows):
            broken.append(f"{top}/ has no row")
    for line in broken:
        print(line)
    print(f"folder table: {len(rows)} rows, {len(broken)} mismatch(es)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
