#!/usr/bin/env python3
"""Every kind of diagram the command draws, rendered by a second renderer.

gnuplot writes each diagram as SVG and PNG; the PNG is gnuplot's own (cairo) and proves
nothing about the SVG, which is what goes into web pages and docs. Here librsvg
(rsvg-convert) renders every SVG of every kind: work-precision diagrams (time with the
min-max bars of repeated runs, f evaluations, an L2 measure, a sensitivity measure, a
study where every run failed), the summary figure, a parameter sweep's scaling diagram
and a fit's data-against-model plot. Each rendering must succeed without a warning, have
the size the SVG declares, and show content: enough drawn pixels, and every series colour
the SVG uses present in the picture (a series whose lines renderers drop would pass an
XML check). The PNG is decoded here with zlib, so no imaging library is needed.

The diagrams published in docs/ (made by earlier commits) must render too.

usage: render_diagrams.py DAEKIT_BINARY PARAMETER_FIXTURE_PLUGIN SOURCE_DIR
"""
import collections
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib


def decode_png(data):
    """(width, height, rows of RGBA tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {header}"
    channels = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * channels:(x + 1) * channels]) + ((255,) if channels == 3 else ())
                     for x in range(width)])
        previous = line
    return width, height, rows


def series_colours(svg):
    """The colours of the SVG's data (lines and markers; not black, grey or white)."""
    found = set()
    for r, g, b in re.findall(r"(?:stroke|color|fill)=['\"]rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)", svg):
        colour = (int(r), int(g), int(b))
        if max(colour) - min(colour) > 40:  # a hue: the axes, grid and text are grey
            found.add(colour)
    return found


def check_render(svg_path, work):
    """The problems of one SVG's rendering, as a list of strings (empty: it passes)."""
    png = work / (svg_path.stem + ".rsvg.png")
    run = subprocess.run(["rsvg-convert", str(svg_path), "-o", str(png)], capture_output=True, text=True)
    if run.returncode != 0 or run.stderr.strip():
        return [f"rsvg-convert: exit {run.returncode}: {run.stderr.strip()}"]
    svg = svg_path.read_text()
    width, height, rows = decode_png(png.read_bytes())
    problems = []
    declared = re.search(r"<svg[^>]*\swidth=\"(\d+)", svg), re.search(r"<svg[^>]*\sheight=\"(\d+)", svg)
    if all(declared) and (width, height) != (int(declared[0].group(1)), int(declared[1].group(1))):
        problems.append(f"rendered {width}x{height}, declared {declared[0].group(1)}x{declared[1].group(1)}")
    pixels = collections.Counter(p for row in rows for p in row)
    drawn = sum(count for p, count in pixels.items() if p[3] > 0 and min(p[:3]) < 200)
    if drawn < 0.01 * width * height:
        problems.append(f"only {drawn} drawn pixels of {width * height}")
    for colour in series_colours(svg):
        hits = sum(count for p, count in pixels.items()
                   if p[3] > 200 and all(abs(p[c] - colour[c]) <= 24 for c in range(3)))
        if hits < 20:
            problems.append(f"series colour rgb{colour} appears in {hits} pixels")
    return problems


def make_diagrams(daekit, fixture, out):
    """Runs the commands that draw every kind; returns the folders they wrote."""
    def run(args, expect=0):
        result = subprocess.run([daekit] + args, capture_output=True, text=True)
        if result.returncode != expect:
            sys.exit(f"daekit {' '.join(args)}: exit {result.returncode}\n{result.stderr}")

    quick = ["--quiet", "--tols", "1e-4,1e-6"]
    # time with min-max bars, f evaluations, the summary figure of two problems
    run(["wpd", "--problem", "rober", "--problem", "hires", "--solvers", "rodas5p,radau5,bdf", "--runs", "2",
         "--out", str(out / "runs")] + quick)
    # an L2 measure against a reference run
    run(["wpd", "--problem", "vdpol", "--solvers", "rodas5p,radau5", "--error", "l2", "--out", str(out / "l2")] + quick)
    # every run failed: the empty diagram says so
    run(["wpd", "--problem", "rober", "--solvers", "rodas5p", "--max-steps", "3", "--out", str(out / "failed")] + quick)
    # a parameter sweep: its scaling diagram
    run(["wpd", "--problem", "fekete", "--param-sweep", "fekete:N=6,10", "--solvers", "rodas5p,bdf",
         "--tols", "1e-4:1e-6", "--reference-solver", "bdf", "--reference-tol", "1e-11", "--quiet",
         "--out", str(out / "sweep")])
    # the sensitivities' measure
    run(["wpd", "--problem", "parametric_decay", "--plugin", fixture, "--solvers", "bdf,radau5", "--error",
         "final,sens", "--sensitivities", "k,c", "--out", str(out / "sens")] + quick)
    # a fit's data against the model
    data = out / "decay.csv"
    data.write_text("t,name,value,sigma\n" + "".join(
        f"{t},y1,{0.3 / 0.8 + (1 - 0.3 / 0.8) * 2.718281828459045 ** (-0.8 * t)},0.001\n"
        for t in (0.25, 0.5, 1.0, 1.5, 2.0)))
    run(["fit", "--problem", "parametric_decay", "--plugin", fixture, "--data", str(data), "--estimate", "k,c",
         "--plots", str(out / "fit")])
    return ["runs", "l2", "failed", "sweep", "sens", "fit"]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    if shutil.which("rsvg-convert") is None:
        sys.exit("rsvg-convert is missing: scripts/setup.sh installs it (Debian's librsvg2-bin)")
    daekit, fixture = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="daekit-render-") as folder:
        out = pathlib.Path(folder)
        failures, rendered = [], 0
        expected = {"runs": ["rober-final.svg", "rober-final-nfev.svg", "summary.svg"], "l2": ["vdpol-l2.svg"],
                    "failed": ["rober-final.svg"], "sweep": ["fekete-scaling.svg"], "sens": ["parametric_decay-sens.svg"],
                    "fit": ["decay.svg"]}
        for kind in make_diagrams(daekit, fixture, out):
            svgs = sorted((out / kind).glob("*.svg"))
            for name in expected[kind]:
                if not (out / kind / name).exists():
                    failures.append(f"{kind}: {name} was not drawn")
            for svg in svgs:
                rendered += 1
                for problem in check_render(svg, out):
                    failures.append(f"{kind}/{svg.name}: {problem}")
        for svg in sorted(pathlib.Path(sys.argv[3], "docs").rglob("*.svg")):
            run = subprocess.run(["rsvg-convert", str(svg), "-o", str(out / "published.png")], capture_output=True,
                                 text=True)
            rendered += 1
            if run.returncode != 0 or run.stderr.strip():
                failures.append(f"{svg}: rsvg-convert: exit {run.returncode}: {run.stderr.strip()}")
        for failure in failures:
            print(failure)
        print(f"{rendered} diagrams rendered by librsvg, {len(failures)} problems")
        sys.exit(1 if failures or rendered == 0 else 0)


if __name__ == "__main__":
    main()
