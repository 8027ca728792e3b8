# Shared by bench/bubble_up.sh and bench/bind_sub_block.sh: the marked-slice
# chain they generate and their best-of-R timers. Callers set `npuc_opt` and
# `runs` before calling.

# awk: prints n elementwise ops on %a of type T (vadd with %b, vexp, vmul
# by %s, vmax with %b, all writing the shared empty %e) and returns the last
# value's name.
chain_awk='
function chain(n, T,    cur, i, k, v, l) {
  cur = "%a"
  for (i = 0; i < n; i++) {
    k = i % 4; v = "%v" i
    if (k == 0) l = "hivm.hir.vadd ins(" cur ", %b : " T ", " T ")"
    else if (k == 1) l = "hivm.hir.vexp ins(" cur " : " T ")"
    else if (k == 2) l = "hivm.hir.vmul ins(" cur ", %s : " T ", f32)"
    else l = "hivm.hir.vmax ins(" cur ", %b : " T ", " T ")"
    print "  " v " = " l " outs(%e : " T ") -> " T
    cur = v
  }
  return cur
}
'

# A chain of N elementwise ops on tensor<64x64xf32> (vadd, vexp, vmul by a
# scalar, vmax), all writing one shared empty init, ending in a marked slice
# of its first 32 rows: the input hivm-bubble-up-extract-slice bubbles.
# usage: gen_chain N FILE
gen_chain() {
  awk -v n="$1" "$chain_awk"'BEGIN {
    T = "tensor<64x64xf32>"
    print "func.func @chain(%a: " T ", %b: " T ", %s: f32, %o: index) -> tensor<32x64xf32> {"
    print "  %e = tensor.empty() : " T
    cur = chain(n, T)
    print "  %r = tensor.extract_slice " cur "[%o, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : " T " to tensor<32x64xf32>"
    print "  return %r : tensor<32x64xf32>"
    print "}"
  }' > "$2"
}

now() { date +%s.%N; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "inf" || b < a) ? b : a }'; }
# usage: pass_time FILE PASS -> the pass's --mlir-timing wall time
pass_time() {
  "$npuc_opt" "$1" "--$2" --mlir-timing 2>&1 >/dev/null |
    awk -v p="$2" '$NF == p { print $1; exit }'
}
# usage: io_time FILE -> reading plus printing as npuc-opt's --mlir-timing
# reports them (Parser + Output: no start-up, teardown or file I/O)
io_time() {
  "$npuc_opt" "$1" --mlir-timing 2>&1 >/dev/null |
    awk '$NF == "Parser" || $NF == "Output" { t += $1 } END { print t }'
}
# usage: best_io FILE -> best-of-R io_time
best_io() {
  local b=inf
  for ((r = 0; r < runs; r++)); do b=$(min "$b" "$(io_time "$1")"); done
  echo "$b"
}
# usage: best_pass FILE PASS -> best-of-R pass time
best_pass() {
  local b=inf
  for ((r = 0; r < runs; r++)); do b=$(min "$b" "$(pass_time "$1" "$2")"); done
  echo "$b"
}
# usage: best_parse FILE -> best-of-R wall time of parse+print
best_parse() {
  local b=inf t0 t1
  for ((r = 0; r < runs; r++)); do
    t0=$(now)
    "$npuc_opt" "$1" >/dev/null
    t1=$(now)
    b=$(min "$b" "$(awk -v x="$t0" -v y="$t1" 'BEGIN { print y - x }')")
  done
  echo "$b"
}
