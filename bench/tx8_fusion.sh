#!/usr/bin/env bash
# The TX8 fusion benchmark (issue 17, "Targets"; not a timed test): four
# graphs written flat as users write them -- a 20-op bf16 elementwise chain,
# 12-head attention scores, a ResNet basic block, a depthwise-separable
# block -- compiled with npuc-compile --target=tx8 and run on the C model;
# prints for each DDR moved / minimum and cycles / bound (from the
# program's own cycle report and lib/TX8/tx8_target.yaml) against the
# issue's targets, then compile time and main.c bytes per op on a
# 10,000-op graph. bench/tx8_graphs.py does the work; bench/README.md
# explains the figures.
# usage: bench/tx8_fusion.sh [BUILD_DIR] [tx8_graphs.py options, e.g. --work DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shift || true
exec python3 "$root/bench/tx8_graphs.py" --bin "$build/bin" \
  --target-yaml "$root/lib/TX8/tx8_target.yaml" "$@"
