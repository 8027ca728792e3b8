#!/usr/bin/env bash
# libnpuc_hivm_rt vadd vs. a plain C loop (bench/hivm_rt_vadd.c), both
# compiled with the same flags (gcc -O2), linked against a built archive.
# The question it answers: does the C model's fast path cost more than
# 1.5x a loop written by hand?
#
# usage: bench/hivm_rt_vadd.sh [BUILD_DIR] [RUNS]   (default: build, 5)
#        BUILD_DIR holds lib/libnpuc_hivm_rt.a (cmake --build BUILD_DIR --target npuc_hivm_rt)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
runs=${2:-5}
[[ $build = /* ]] || build=$root/$build
archive=$build/lib/libnpuc_hivm_rt.a
[[ -f $archive ]] || { echo "no $archive: build the npuc_hivm_rt target first" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I"$root/include" \
    "$root/bench/hivm_rt_vadd.c" "$archive" -lm -o "$work/hivm_rt_vadd"
"$work/hivm_rt_vadd" "$runs"
