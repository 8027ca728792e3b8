#!/usr/bin/env python3
"""Counts, in a TX8 program's trace (--trace=FILE), the loads that ran
before a store issued ahead of them: per tile, an RDMA span that comes
after a WDMA span in the file (the timeline writes each tile's spans in
the order the ops were issued) but starts before that span does. The
DDR channel's two engines keep their own queues and share the port, so
a load ready while a store still waits for its data takes the port
first. Prints "loads ahead of earlier stores: N".
usage: tx8_trace_reorder.py TRACE.json"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    track = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            track[(e["pid"], e["tid"])] = e["args"]["name"]
    stores = {}  # tile -> the latest start among the stores issued so far
    ahead = 0
    for e in events:
        if e.get("ph") != "X":
            continue
        kind, start = track[(e["pid"], e["tid"])], e["args"]["start"]
        if kind == "wdma":
            stores[e["pid"]] = max(stores.get(e["pid"], start), start)
        elif kind == "rdma" and e["pid"] in stores and start < stores[e["pid"]]:
            ahead += 1
    print("loads ahead of earlier stores: %d" % ahead)


if __name__ == "__main__":
    main()
