#!/usr/bin/env python3
"""Checks the SPM pictures of a generated TX8 program (npuc-compile
--tx8-spm-svg) against its allocation. usage: tx8_svg_check.py OUT_DIR
For each OUT_DIR/spm_groupN.svg: it parses as XML (SVG namespace); every
buffer rectangle lies inside the group's peak, where its data-offset and
data-bytes put it (y, height) over its steps (x, width); no two buffers
live at the same step overlap in SPM (but a buffer written in place of
one that dies at that step, its data-inplace); the peak is the highest buffer end
and at most the program's tx8_spm_bytes; and main.c's group N places
buffer i at that offset (b[i] = npuc_tx8_tsr_of_lshape(spm + offset ...).
Prints one line per group (buffers, their bytes summed, the peak) and
exits 1 on the first disagreement."""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
LEFT, TOP, PLOT_W, PLOT_H = 110, 40, 760, 480


def fail(msg):
    sys.exit("svg: " + msg)


def group_offsets(main_c, n):
    """buffer index -> SPM offset in main.c's group n function."""
    body = main_c.split("static uint64_t group%d(" % n)[1].split("\nstatic uint64_t group")[0]
    return {int(i): int(o) for i, o in
            re.findall(r"b\[(\d+)\] = npuc_tx8_tsr_of_lshape\(spm \+ (\d+),", body)}


def check(path, main_c, spm_bytes):
    root = ET.parse(path).getroot()
    if root.tag != NS + "svg":
        fail("%s: not an SVG" % path)
    n, peak, steps = (int(root.get(k)) for k in ("data-group", "data-peak", "data-steps"))
    placed = group_offsets(main_c, n)
    bufs = []
    for r in root.iter(NS + "rect"):
        if r.get("data-buffer") is None:
            continue
        i, off, size, first, last, inplace = (int(r.get(k)) for k in (
            "data-buffer", "data-offset", "data-bytes", "data-first", "data-last",
            "data-inplace"))
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        want = (LEFT + first * PLOT_W / steps, TOP + off * PLOT_H / peak,
                (last + 1 - first) * PLOT_W / steps, size * PLOT_H / peak)
        if any(abs(a - b) > 0.01 for a, b in zip((x, y, w, h), want)):
            fail("%s: buffer %d drawn away from its allocation" % (path, i))
        if size <= 0 or off + size > peak or not 0 <= first <= last < steps:
            fail("%s: buffer %d outside the picture" % (path, i))
        if i in placed and placed[i] != off:
            fail("%s: buffer %d at %d, main.c places it at %d" % (path, i, off, placed[i]))
        bufs.append((i, off, size, first, last, inplace))
    for a in bufs:
        for b in bufs:
            in_place = (b[5] == a[0] and a[4] == b[3]) or (a[5] == b[0] and b[4] == a[3])
            if a[0] < b[0] and a[3] <= b[4] and b[3] <= a[4] and not in_place and \
                    a[1] < b[1] + b[2] and b[1] < a[1] + a[2]:
                fail("%s: buffers %d and %d overlap while both live" % (path, a[0], b[0]))
    if not bufs or max(b[1] + b[2] for b in bufs) != peak or peak > spm_bytes:
        fail("%s: the peak is not the highest buffer end within SPM" % path)
    print("group %d: %d buffers, %d bytes, peak %d" % (
        n, len(bufs), sum(b[2] for b in bufs), peak))


def main():
    out = sys.argv[1]
    main_c = open(os.path.join(out, "main.c")).read()
    spm_bytes = int(re.search(r"tx8_spm_bytes = (\d+);", main_c).group(1))
    paths = sorted(glob.glob(os.path.join(out, "spm_group*.svg")),
                   key=lambda p: int(re.search(r"(\d+)\.svg$", p).group(1)))
    if not paths:
        fail("no pictures in " + out)
    for p in paths:
        check(p, main_c, spm_bytes)


main()
