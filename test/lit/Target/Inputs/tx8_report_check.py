#!/usr/bin/env python3
"""Checks a TX8 program's cycle report (cycles.txt) is consistent: the
total lines are the sums of the group lines (the total cycles, when
groups share barrier levels, the sum of the level lines, each level
between its slowest group and the sum of its groups' slowest tiles); per group, each engine's
busiest tile is at most the sum over tiles, and the slowest tile's cycles
lie between the largest engine's busiest tile and the sum of the busiest
tiles (the tile's timeline is never idle before its last op ends), and
at least the bound, which is at least each engine's busiest tile. Prints "report ok: G
groups" or the first inconsistency, and exits 1 on one."""
import re
import sys

ENGINES = ["rdma", "wdma", "ne", "ct", "tdma", "noc"]


def parse(text):
    groups, total, levels = {}, {}, []
    for line in text.splitlines():
        lv = re.match(r"level (\d+): (\d+) cycles over (\d+) groups \(slowest tile\)$", line)
        if lv:
            levels.append((int(lv.group(2)), int(lv.group(3))))
            continue
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
    return groups, total, levels


def check_levels(groups, total, levels):
    """The level lines cover the groups in order (a level's groups are
    consecutive in the order they run) and add up to the total."""
    if sum(c for c, _ in levels) != total["cycles"]:
        sys.exit("report: total cycles is not the sum over levels")
    order = [groups[n]["cycles"] for n in sorted(groups)]
    at = 0
    for cycles, count in levels:
        mine = order[at:at + count]
        at += count
        if not mine or not max(mine) <= cycles <= sum(mine):
            sys.exit("report: a level outside its groups' range")
    if at != len(order):
        sys.exit("report: the levels do not cover the groups")
    print("levels ok: %d levels" % len(levels))


def main():
    groups, total, levels = parse(open(sys.argv[1]).read())
    keys = ["bound", "read", "written"] + ([] if levels else ["cycles"])
    if levels:
        check_levels(groups, total, levels)
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
