#!/usr/bin/env python3
"""Checks a TX8 program's cycle report (cycles.txt) is consistent: the
total lines are the sums of the group lines; per group, each engine's
busiest tile is at most the sum over tiles, and the slowest tile's cycles
lie between the largest engine's busiest tile and the sum of the busiest
tiles (the tile's timeline is never idle before its last op ends), and
at least the bound, which is at least each engine's busiest tile. Prints "report ok: G
groups" or the first inconsistency, and exits 1 on one."""
import re
import sys

ENGINES = ["rdma", "wdma", "ne", "ct", "tdma"]


def parse(text):
    groups, total = {}, {}
    for line in text.splitlines():
        m = re.match(r"(group (\d+)|total)( ddr| busy max| busy sum| bound)?: (.*)", line)
        if not m:
            sys.exit("report: unexpected line: " + line)
        rec = total if m.group(1) == "total" else groups.setdefault(int(m.group(2)), {})
        kind, rest = (m.group(3) or " cycles").strip(), m.group(4)
        if kind in ("cycles", "bound"):
            rec[kind] = int(rest.split()[0])
        elif kind == "ddr":
            r = re.match(r"read (\d+) written (\d+) bytes", rest)
            rec["read"], rec["written"] = int(r.group(1)), int(r.group(2))
        else:
            vals = dict(re.findall(r"(\w+) (\d+)", rest.split(" cycles")[0]))
            rec[kind] = [int(vals[e]) for e in ENGINES]
    return groups, total


def main():
    groups, total = parse(open(sys.argv[1]).read())
    keys = ["cycles", "bound", "read", "written"]
    for k in keys:
        if sum(g[k] for g in groups.values()) != total[k]:
            sys.exit("report: total %s is not the sum over groups" % k)
    for k in ["busy max", "busy sum"]:
        for i, e in enumerate(ENGINES):
            if sum(g[k][i] for g in groups.values()) != total[k][i]:
                sys.exit("report: total %s %s is not the sum over groups" % (k, e))
    for n, g in sorted(groups.items()):
        if any(a > b for a, b in zip(g["busy max"], g["busy sum"])):
            sys.exit("report: group %d: a busiest tile above the sum" % n)
        if not max(g["busy max"]) <= g["bound"] <= g["cycles"] <= sum(g["busy max"]):
            sys.exit("report: group %d: cycles outside the engines' range" % n)
    print("report ok: %d groups" % len(groups))


main()
