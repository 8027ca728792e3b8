#!/usr/bin/env bash
# Conformance of hivm-bind-sub-block on the AscendNPU-IR cases in
# tile-and-bind-splits/split_N.mlir: agreement on the decision per case
# (tiled 1:2, fallen back to 1:1, or left alone) with bishengir-opt.
#
# usage: test/conformance/tile_and_bind.sh [--min PCT] [NPUC_OPT [DIR]]
#   NPUC_OPT  npuc-opt to test (default $NPUC_OPT, else build/bin/npuc-opt)
#   DIR       the cases (default ../shared/conformance/ascendnpu-ir/
#             tile-and-bind-splits beside the repository)
#   --min     exit 1 when the agreement is below PCT percent (default 90)
# Each disagreement is printed with its reason; one the script has no reason
# for also makes it exit 1.
# The logic is in tile_and_bind.py (python3, standard library only).
exec python3 "$(dirname "$0")/tile_and_bind.py" "$@"
