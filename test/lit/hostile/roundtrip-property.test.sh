# roundtrip-property.test's input: every round-trip file of the dialect
# tests, one --split-input-file chunk each (a file split already keeps its
# splits).
dir=$1 out=$2
: > "$out"
for f in "$dir"/*/roundtrip*.mlir; do
  cat "$f"
  printf '\n// -----\n'
done >> "$out"
