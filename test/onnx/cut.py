#!/usr/bin/python3
"""Runs a tool on truncations of a file (each STEP-th length, STEP raised so
that there are at most 96 of them: each run starts a process, and the
suite runs under the sanitizers too) and on 64 byte flips of it: each run must exit 1 with an error, or 0, and never die
on a signal (the reader turns malformed protobuf into an error).

  cut.py TOOL FILE WORKDIR [STEP]
"""
import os
import subprocess
import sys

tool, path, work = sys.argv[1:4]
step = int(sys.argv[4]) if len(sys.argv) > 4 else 8
data = open(path, "rb").read()
os.makedirs(work, exist_ok=True)
step = max(step, -(-len(data) // 96))
variants = [data[:n] for n in range(0, len(data), step)]
for k in range(0, len(data), max(1, len(data) // 64)):
    flipped = bytearray(data)
    flipped[k] ^= 0xFF
    variants.append(bytes(flipped))
errors = accepted = 0
for k, v in enumerate(variants):
    f = os.path.join(work, "v.onnx")
    with open(f, "wb") as fh:
        fh.write(v)
    r = subprocess.run([tool, f, "-o", os.path.join(work, "v.mlir")],
                       capture_output=True, text=True, errors="replace")
    if r.returncode < 0 or r.returncode > 1 or (r.returncode and "error:" not in r.stderr):
        print(f"variant {k}: exit {r.returncode}: {r.stderr[-500:]}")
        sys.exit(1)
    errors += r.returncode == 1
    accepted += r.returncode == 0
print(f"cut: {len(variants)} variants, {errors} errors, {accepted} accepted, no crash")
