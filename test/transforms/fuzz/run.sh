#!/bin/bash
# Differential test of tilus-opt's passes against mlir-opt on random programs.
#
#   test/transforms/fuzz/run.sh GENERATOR PIPELINE COUNT [FIRST_SEED]
#   e.g. test/transforms/fuzz/run.sh gen_arith.py canonicalize 500
#        NOCF=1 test/transforms/fuzz/run.sh gen_patterns.py 'canonicalize{top-down=false}' 300
#        test/transforms/fuzz/run.sh gen_calls.py 'inline,cse,canonicalize,symbol-dce' 200
#
# For each seed, mlir-opt runs the pipeline, and tilus-opt's result is printed again by mlir-opt
# so that only the transformation is compared, not how each tool names values. Differing inputs
# are kept as fail_<seed>.mlir in $OUT (default: a temporary folder). "byte-identical" counts
# the cases where tilus-opt's own printing already matched. DEBUGINFO=1 compares locations too
# (the fused and unknown locations rewrites leave behind).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=$1; P=$2; N=$3; S=${4:-0}
T=${TILUS_OPT:-$HERE/../../../target/release/tilus-opt}
M=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
OUT=${OUT:-$(mktemp -d)}
# Generated call graphs can make inlining blow up exponentially (in both tools); such seeds are
# skipped after LIMIT seconds.
LIMIT=${LIMIT:-20}
MF=(); TF=()
if [ -n "${DEBUGINFO:-}" ]; then MF=(--mlir-print-debuginfo); TF=(--print-debuginfo); fi
ok=0; bad=0; strict=0; skipped=0
for i in $(seq "$S" $((S + N - 1))); do
  python3 "$HERE/$GEN" "$i" > "$OUT/in.mlir"
  if ! timeout "$LIMIT" "$M" "${MF[@]}" --allow-unregistered-dialect --pass-pipeline="builtin.module($P)" "$OUT/in.mlir" > "$OUT/m.out" 2>&1; then
    skipped=$((skipped + 1)); continue
  fi
  timeout "$LIMIT" "$T" "${TF[@]}" --allow-unregistered-dialect --pass-pipeline="builtin.module($P)" "$OUT/in.mlir" > "$OUT/t.out" 2>&1
  cmp -s "$OUT/m.out" "$OUT/t.out" && strict=$((strict + 1))
  timeout "$LIMIT" "$M" "${MF[@]}" --allow-unregistered-dialect "$OUT/t.out" > "$OUT/tn.out" 2>&1
  if cmp -s "$OUT/m.out" "$OUT/tn.out"; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1)); cp "$OUT/in.mlir" "$OUT/fail_$i.mlir"; echo "seed $i differs ($OUT/fail_$i.mlir)"
  fi
done
echo "$GEN | $P: $ok same, $bad differ, $skipped skipped (rejected or over the time limit); $strict byte-identical"
[ "$bad" -eq 0 ]
