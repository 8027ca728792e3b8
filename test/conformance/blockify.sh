#!/usr/bin/env bash
# Runs our auto-blockify-parallel-loop and triton-global-kernel-args-to-hivm-op
# on AscendNPU-IR's own tests of those passes (read in place from
# ../shared/conformance/ascendnpu-ir, never copied) and checks their CHECK
# lines with FileCheck, the way their RUN lines do with bishengir-opt.
#
# usage: test/conformance/blockify.sh [NPUC_OPT [DIR]]
# Prints one line per file and `blockify conformance: N passed, M failed`;
# exits 1 when a file fails. Without DIR (no ../shared) it says so and
# exits 0.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
npuc_opt=${1:-${NPUC_OPT:-$root/build/bin/npuc-opt}}
dir=${2:-$root/../shared/conformance/ascendnpu-ir}
filecheck=${FILECHECK:-/usr/lib/llvm-22/bin/FileCheck}

if [[ ! -d $dir ]]; then
  echo "blockify conformance: no inputs at $dir, skipped"
  exit 0
fi
[[ -x $npuc_opt ]] || { echo "not executable: $npuc_opt" >&2; exit 2; }

err=$(mktemp)
trap 'rm -f "$err"' EXIT
passed=0 failed=0
# file | npuc-opt arguments (the file's RUN line, with our pass options)
cases=(
  # The current pass: the strided loop is our default.
  "auto-blockify-parallel-loop.HEAD.mlir|-auto-blockify-parallel-loop -verify-diagnostics"
  # An older revision checked the seed's ceildiv loop: our mode=ceildiv.
  "auto-blockify-parallel-loop.v1-869a3b4d4.mlir|-auto-blockify-parallel-loop=mode=ceildiv -verify-diagnostics"
  "triton-global-kernel-args-to-hivm-op.mlir|-allow-unregistered-dialect -triton-global-kernel-args-to-hivm-op -split-input-file -verify-diagnostics"
)
for c in "${cases[@]}"; do
  file=$dir/${c%%|*}
  read -r -a args <<<"${c#*|}"
  if [[ ! -f $file ]]; then
    echo "MISSING ${c%%|*}"
    failed=$((failed + 1))
    continue
  fi
  # npuc-opt's diagnostics stay out of FileCheck's input, as in lit.
  if out=$("$npuc_opt" "$file" "${args[@]}" 2>"$err" | "$filecheck" "$file" 2>&1); then
    echo "PASS ${c%%|*}"
    passed=$((passed + 1))
  else
    echo "FAIL ${c%%|*}"
    { cat "$err"; printf '%s\n' "$out"; } | head -20
    failed=$((failed + 1))
  fi
done
echo "blockify conformance: $passed passed, $failed failed"
((failed == 0))
