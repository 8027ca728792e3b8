#!/usr/bin/env bash
# Runs npuc-opt over every `// -----` case of the AscendNPU-IR conformance
# inputs and reports parse / round-trip / custom-syntax results per file.
#
# usage: test/conformance/run.sh [--strict] [-j N] [--xfail FILE] [NPUC_OPT [DIR]]
#   NPUC_OPT  npuc-opt to test (default $NPUC_OPT, else build/bin/npuc-opt)
#   DIR       inputs, searched recursively (default ../shared/conformance/
#             ascendnpu-ir beside the repository)
#   --strict  exit 1 when a case fails that xfail.txt does not list
# The logic is in conformance.py (python3, standard library only).
exec python3 "$(dirname "$0")/conformance.py" "$@"
