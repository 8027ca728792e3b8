#!/usr/bin/env bash
# Runs the lit suite and the unit tests (ctest) of one build directory and
# ends with one line over both: "N passed, M failed". Fails if anything did.
set -uo pipefail

build=${1:?usage: scripts/run-tests.sh <build-dir>}
lit=${LIT:-/usr/lib/llvm-22/bin/lit}
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() { # count <label> -> the number lit printed after "<label>:", or 0
  sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1 | grep . || echo 0
}

"$lit" -sv --param build_dir="$build" test/lit 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}
lit_passed=$(count Passed)
lit_failed=$(( $(count Failed) + $(count Unresolved) + $(count 'Timed Out') \
               + $(count 'Unexpectedly Passed') ))
if [ "$lit_status" -ne 0 ] && [ "$lit_failed" -eq 0 ]; then
  lit_failed=1 # lit itself failed before it could count
fi

ctest --test-dir "$build" --output-on-failure 2>&1 | tee "$log"
ctest_status=${PIPESTATUS[0]}
ctest_total=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
ctest_failed=$(sed -n 's/.*, \([0-9][0-9]*\) tests\{0,1\} failed out of.*/\1/p' "$log" | tail -n 1)
ctest_total=${ctest_total:-0}
ctest_failed=${ctest_failed:-0}
if [ "$ctest_status" -ne 0 ] && [ "$ctest_failed" -eq 0 ]; then
  ctest_failed=1
fi
ctest_passed=$(( ctest_total - ctest_failed ))

echo
echo "lit: $lit_passed passed, $lit_failed failed; unit tests: $ctest_passed passed, $ctest_failed failed"
echo "$(( lit_passed + ctest_passed )) passed, $(( lit_failed + ctest_failed )) failed"
[ "$lit_failed" -eq 0 ] && [ "$ctest_failed" -eq 0 ]
