#!/usr/bin/env python3
"""Seeded random FMUs for the FMU fuzz test (tests/cli/test_fmu.cpp): a good FMU's
modelDescription.xml with attribute values replaced by hostile ones, elements dropped
or repeated, and archives with flipped bytes or cut short. The same seed gives the same
archives, so a failure can be replayed (DAEKIT_FUZZ_SEED).

Usage: fuzz_fmus.py SEED COUNT OUT_DIR GOOD_FMU
"""
import io
import os
import random
import re
import sys
import zipfile

VALUES = ["0", "1", "-1", "2", "3", "7", "4294967295", "4294967296", "18446744073709551616", "1e300",
          "1000000000000", "nan", "", "x", "true", "false", "2.0", "3.0", "1.0", "0 1 2", "-0", "00001",
          "99999999999999999999999", "\u00e9", "a" * 300]


def mutate_description(text, rng):
    for _ in range(rng.randint(1, 4)):
        kind = rng.randint(0, 3)
        if kind == 0:  # an attribute's value
            attributes = list(re.finditer(r'(\w+)="([^"]*)"', text))
            m = rng.choice(attributes)
            text = text[:m.start(2)] + rng.choice(VALUES) + text[m.end(2):]
        elif kind == 1:  # a line dropped
            lines = text.split("\n")
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif kind == 2:  # a line repeated
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        else:  # an attribute added where it does not belong
            tags = list(re.finditer(r"<(\w+)", text))
            m = rng.choice(tags)
            extra = f' {rng.choice(["derivative", "valueReference", "index", "numberOfEventIndicators"])}="{rng.choice(VALUES)}"'
            text = text[:m.end()] + extra + text[m.end():]
    return text


def archive(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buffer.getvalue()


def main():
    seed, count, out, good = sys.argv[1:5]
    rng = random.Random(int(seed))
    os.makedirs(out, exist_ok=True)
    with zipfile.ZipFile(good) as z:
        description = z.read("modelDescription.xml").decode("utf-8")
        so = next(n for n in z.namelist() if n.startswith("binaries/"))
        binary = z.read(so)
    for k in range(int(count)):
        if rng.random() < 0.7:
            data = archive([("modelDescription.xml", mutate_description(description, rng)), (so, binary)])
        else:
            data = bytearray(archive([("modelDescription.xml", description), (so, binary)]))
            if rng.random() < 0.5:
                data = data[: rng.randrange(len(data))]  # cut short
            else:
                for _ in range(rng.randint(1, 16)):  # bytes flipped
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        with open(os.path.join(out, f"fuzz{k:03d}.fmu"), "wb") as f:
            f.write(bytes(data))


if __name__ == "__main__":
    main()
