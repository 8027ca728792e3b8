#!/usr/bin/env python3
"""Checks a TX8 program's trace (Chrome trace-event JSON, --trace=FILE)
against its cycle report (cycles.txt): the file parses; every span is a
complete event on a tile (pid) and track (tid: an engine, or "group");
spans on one track never overlap, nor do RDMA's and WDMA's (one DDR
channel) or CT's and TDMA's (one SPM port) on one tile; per group, the
slowest tile's group span is the report's group cycles, each engine's
spans on its busiest tile add up to the report's busy max, and every op
lies inside its group's span. Prints "trace ok: S spans, G groups, T
tiles" or the first inconsistency, and exits 1 on one.
usage: tx8_trace_check.py TRACE.json cycles.txt"""
import collections
import json
import re
import sys

ENGINES = ["rdma", "wdma", "ne", "ct", "tdma", "noc"]
SHARED = [("rdma", "wdma"), ("ct", "tdma")]


def report(path):
    groups = collections.defaultdict(dict)
    for line in open(path):
        m = re.match(r"group (\d+): (\d+) cycles", line)
        if m:
            groups[int(m.group(1))]["cycles"] = int(m.group(2))
        m = re.match(r"group (\d+) busy max: (.*) cycles \(", line)
        if m:
            vals = dict(re.findall(r"(\w+) (\d+)", m.group(2)))
            groups[int(m.group(1))]["busy"] = {e: int(vals[e]) for e in ENGINES}
    return groups


def no_overlap(spans, what):
    spans = sorted(spans)
    for (s0, e0, n0), (s1, e1, n1) in zip(spans, spans[1:]):
        if s1 < e0:
            sys.exit("trace: %s: %s [%d, %d) overlaps %s [%d, %d)"
                     % (what, n0, s0, e0, n1, s1, e1))


def main():
    trace = json.load(open(sys.argv[1]))
    groups = report(sys.argv[2])
    names = {}
    tracks = collections.defaultdict(list)  # (tile, track) -> spans
    busy = collections.defaultdict(int)     # (group, tile, engine) -> cycles
    span = {}                               # (group, tile) -> (start, end)
    count = 0
    for ev in trace["traceEvents"]:
        if ev["ph"] == "M":
            if ev["name"] == "thread_name":
                names[(ev["pid"], ev["tid"])] = ev["args"]["name"]
            continue
        if ev["ph"] != "X":
            sys.exit("trace: an event of phase %s" % ev["ph"])
        track = names.get((ev["pid"], ev["tid"]))
        if track is None or track != ev["cat"]:
            sys.exit("trace: a span on an unnamed or mislabelled track")
        a, c = ev["args"]["start"], ev["args"]["cycles"]
        if abs(ev["ts"] * 1000 - a) > 1 or abs(ev["dur"] * 1000 - c) > 1:
            sys.exit("trace: ts/dur disagree with the cycles in args")
        g, tile = ev["args"]["group"], ev["pid"]
        tracks[(tile, track)].append((a, a + c, ev["name"]))
        if track == "group":
            span[(g, tile)] = (a, a + c)
        else:
            busy[(g, tile, track)] += c
            if not ev["name"].startswith("group %d: " % g):
                sys.exit("trace: span %s not named after group %d" % (ev["name"], g))
        count += 1
    for (tile, track), spans in tracks.items():
        no_overlap(spans, "tile %d %s" % (tile, track))
    tiles = sorted({t for t, _ in tracks})
    for tile in tiles:
        for x, y in SHARED:
            no_overlap(tracks[(tile, x)] + tracks[(tile, y)],
                       "tile %d %s+%s" % (tile, x, y))
    for (tile, track), spans in tracks.items():
        if track == "group":
            continue
        for a, e, n in spans:
            g = int(n.split(":")[0].split()[1])
            s0, s1 = span[(g, tile)]
            if a < s0 or e > s1:
                sys.exit("trace: %s on tile %d outside its group's span" % (n, tile))
    for g, rec in sorted(groups.items()):
        slowest = max((e - s for (h, _), (s, e) in span.items() if h == g), default=0)
        if slowest != rec["cycles"]:
            sys.exit("trace: group %d spans %d cycles, the report says %d"
                     % (g, slowest, rec["cycles"]))
        for e in ENGINES:
            top = max((busy[(g, t, e)] for t in tiles), default=0)
            if top != rec["busy"][e]:
                sys.exit("trace: group %d %s busiest tile %d, the report says %d"
                         % (g, e, top, rec["busy"][e]))
    print("trace ok: %d spans, %d groups, %d tiles" % (count, len(groups), len(tiles)))


if __name__ == "__main__":
    main()
