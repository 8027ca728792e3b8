#!/usr/bin/env bash
# Builds fuzz/fuzz_syntax.c with libFuzzer + ASan + UBSan and runs it for a
# bounded time. Exits non-zero when the fuzzer reports a crash, a leak, a
# sanitizer error or a timeout; the reproducer is copied to $FUZZ_OUT.
#
# usage: fuzz/run.sh                 fuzz for $FUZZ_SECONDS (default 60)
#        fuzz/run.sh --repro [FILE]  run the harness once on each FILE
#                                    (default: fuzz/crashes/*.mlir)
# env:   FUZZ_SECONDS, CONFORMANCE_DIR (seed files), FUZZ_OUT (where
#        reproducers go; default a temp dir that is kept on failure),
#        FUZZ_CC (default clang-14), FUZZ_JOBS (parallel workers, default 1)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# FUZZ_CC, not CC: a CC=gcc in the environment must not break the build.
cc=${FUZZ_CC:-$(command -v clang-14 || command -v clang)}
seconds=${FUZZ_SECONDS:-60}
conformance=${CONFORMANCE_DIR:-$root/../shared/conformance/ascendnpu-ir}
jobs=${FUZZ_JOBS:-1}

work=$(mktemp -d)
keep_work=
trap '[[ -n $keep_work ]] || rm -rf "$work"' EXIT

# ---- build --------------------------------------------------------------
# The op tables are embedded the way CMake does it, so no prior build is
# needed; the library goes into an archive so that objects the harness does
# not reach (FatalError.c needs LLVM) are never linked.
cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer
        -fsanitize=address,undefined -fno-sanitize-recover=undefined
        -I"$root/include")
cmake -DOUT="$work/npuc_tables.c" -DINPUT_DIR="$root/lib/Dialect/tables" \
      -P "$root/lib/Dialect/tables/Embed.cmake"
reader=("$root"/lib/Support/*.c "$root"/lib/Dialect/OpTable*.c
        "$root"/lib/Dialect/Format*.c "$work/npuc_tables.c")
# The tables' C data, as lib/CMakeLists.txt makes it: npuc-tablegen (the
# one table reader, built plainly here) over the YAML files in byte order.
mapfile -t tables < <(printf '%s\n' "$root"/lib/Dialect/tables/*.yaml | LC_ALL=C sort)
mkdir -p "$work/tablegen"
for s in "${reader[@]}"; do
  "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -I"$root/include" \
        $(pkg-config --cflags yaml-0.1) -c "$s" \
        -o "$work/tablegen/$(basename "${s%.c}").o" &
done
wait
ar rcs "$work/libreader.a" "$work"/tablegen/*.o
"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -I"$root/include" \
      "$root/lib/Dialect/tables/TableGen.c" "$work/libreader.a" \
      $(pkg-config --libs yaml-0.1) -o "$work/npuc-tablegen"
"$work/npuc-tablegen" "$work/npuc_tables_data.c" "${tables[@]}"
srcs=("${reader[@]}" "$root"/lib/Syntax/*.c
      "$root/lib/Dialect/BuiltinTables.c" "$work/npuc_tables_data.c")
mkdir -p "$work/obj"
for s in "${srcs[@]}"; do
  o=$work/obj/$(basename "${s%.c}").o
  "$cc" "${cflags[@]}" -fsanitize=fuzzer-no-link $(pkg-config --cflags yaml-0.1) \
        -c "$s" -o "$o" &
done
wait
ar rcs "$work/libnpuc_syntax.a" "$work"/obj/*.o
"$cc" "${cflags[@]}" -fsanitize=fuzzer "$root/fuzz/fuzz_syntax.c" \
      "$work/libnpuc_syntax.a" $(pkg-config --libs yaml-0.1) -o "$work/fuzz_syntax"

# Stack traces for UBSan reports too; leaks count as failures.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0

# ---- reproduce ------------------------------------------------------------
if [[ ${1:-} == --repro ]]; then
  shift
  (($#)) || set -- "$root"/fuzz/crashes/*.mlir
  [[ -e $1 ]] || { echo "no reproducers to run"; exit 0; }
  "$work/fuzz_syntax" "$@"
  exit
fi

# ---- seed corpus -------------------------------------------------------------
# Conformance files are split at `// -----` into one seed per case: small
# seeds mutate much faster than 4000-line files. They are copied at run
# time only; the repository never holds them.
corpus=$work/corpus
mkdir -p "$corpus"
cp "$root"/fuzz/corpus/* "$corpus"/
if [[ -d $conformance ]]; then
  find "$conformance" -name '*.mlir' -print0 |
  while IFS= read -r -d '' f; do
    rel=${f#"$conformance"/}
    awk -v out="$corpus/${rel//\//_}" '
      /^\/\/ -----/ { close(out "." n); n++; next }
      { print > (out "." n) }' n=0 "$f"
  done
else
  echo "note: no conformance seeds at $conformance" >&2
fi
echo "corpus: $(ls "$corpus" | wc -l) seeds"

# Every op name and format literal of the tables, so mutations can insert
# whole keywords instead of finding them byte by byte.
grep -ohE '[a-z_]+\.(hir\.)?[a-z_0-9]+|`[^`]+`' "$root"/lib/Dialect/tables/*.yaml |
  tr -d '`' | grep -v '^$' | sort -u | sed 's/.*/"&"/' > "$work/dict"
printf '"%s"\n' '// -----' '#hivm.' 'memref<' 'tensor<' 'loc(' \
  '#dlti.target_system_spec<' '{-#' '#-}' >> "$work/dict"

# ---- fuzz -------------------------------------------------------------------
out=${FUZZ_OUT:-$work/artifacts}
mkdir -p "$out"
status=0 fork=()
((jobs > 1)) && fork=(-fork="$jobs")
(cd "$work" && ./fuzz_syntax -max_total_time="$seconds" -timeout=10 \
   -rss_limit_mb=2048 -max_len=16384 -dict="$work/dict" \
   -artifact_prefix="$out/" -print_final_stats=1 \
   "${fork[@]}" "$corpus") || status=$?
if ((status != 0)) || compgen -G "$out/*" > /dev/null; then
  keep_work=1
  echo "FUZZ FAILED (status $status); reproducers in $out:" >&2
  ls -l "$out" >&2
  exit $((status ? status : 1))
fi
echo "fuzz: no crash in ${seconds}s"
