#!/usr/bin/env bash
# Conformance of aie-vectorize on mlir-aie's tests in
# ../shared/conformance/mlir-aie (read in place): each RUN line through
# npuc-opt and FileCheck, pass/fail per file.
#
# usage: test/conformance/aie_vectorize.sh [--strict] [-v] [NPUC_OPT [DIR]]
#   --strict  exit 1 when a file of aie_vectorize_expected.txt fails
# The logic is in aie_vectorize.py (python3, standard library only).
exec python3 "$(dirname "$0")/aie_vectorize.py" "$@"
