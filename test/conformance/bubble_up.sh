#!/usr/bin/env bash
# Conformance of hivm-bubble-up-extract-slice on the AscendNPU-IR cases in
# bubble-up-splits/s_N.mlir: FileCheck of npuc-opt's output against each
# case's CHECK lines, and agreement on the decision (bubbled or not).
#
# usage: test/conformance/bubble_up.sh [--strict] [-v] [NPUC_OPT [DIR]]
#   NPUC_OPT  npuc-opt to test (default $NPUC_OPT, else build/bin/npuc-opt)
#   DIR       the cases (default ../shared/conformance/ascendnpu-ir/
#             bubble-up-splits beside the repository)
#   --strict  exit 1 unless every case passes FileCheck and agrees
#   -v        print FileCheck's first error line for each failure
# The logic is in bubble_up.py (python3, standard library only).
exec python3 "$(dirname "$0")/bubble_up.py" "$@"
