#!/usr/bin/env bash
# Builds fuzz/fuzz_onnx.c (the ONNX reader, with the protobuf-c bindings
# generated from python3-onnx's onnx.proto) with libFuzzer + ASan + UBSan
# and runs it for FUZZ_SECONDS on seeds made at run time by
# test/onnx/lit_models.py. Exits non-zero on a crash, leak, sanitizer
# report or timeout; the reproducer is kept in $FUZZ_OUT.
# usage: fuzz/onnx.sh                 env: FUZZ_SECONDS (60), FUZZ_CC, FUZZ_OUT,
#                                          PYTHON_ONNX (/usr/bin/python3)
#        fuzz/onnx.sh --repro [FILE]  only run the harness once on each FILE
#                                     (default: fuzz/crashes/*.onnx, which
#                                     a fuzzing run also runs first)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cc=${FUZZ_CC:-$(command -v clang-14 || command -v clang)}
seconds=${FUZZ_SECONDS:-60}
python=${PYTHON_ONNX:-/usr/bin/python3}
proto=$(dpkg -L python3-onnx | grep '/onnx\.proto$' | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
protoc-c --c_out="$work" -I"$(dirname "$proto")" "$proto"
cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer
        -fsanitize=address,undefined -fno-sanitize-recover=undefined
        -I"$root/include" -I"$root/lib/Onnx" -I"$work" -I/usr/lib/llvm-22/include
        $(pkg-config --cflags libprotobuf-c))
"$cc" "${cflags[@]}" -fsanitize=fuzzer "$root/fuzz/fuzz_onnx.c" \
  "$root/lib/Onnx/Reader.c" "$work/onnx.pb-c.c" "$root/lib/Support/Alloc.c" \
  "$root/lib/Support/Diagnostics.c" "$root/lib/Support/Progress.c" \
  $(pkg-config --libs libprotobuf-c) \
  -o "$work/fuzz_onnx"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1
# The saved reproducers first, every run (one build serves both).
repro=1
[[ ${1:-} == --repro ]] && { repro=2; shift; }
(($#)) || set -- "$root"/fuzz/crashes/*.onnx
if [[ -e $1 ]]; then
  "$work/fuzz_onnx" "$@"
else
  echo "no ONNX reproducers to run"
fi
((repro == 2)) && exit 0
mkdir -p "$work/corpus"
"$python" "$root/test/onnx/lit_models.py" "$work/corpus" conv_chain patterns \
  unsupported runtime_weights dynamic relu
out=${FUZZ_OUT:-$root/build/fuzz-onnx}
mkdir -p "$out"
"$work/fuzz_onnx" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" "$work/corpus"
