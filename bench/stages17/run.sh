#!/usr/bin/env bash
# Issue 17 experiment: does a 4-stage ring pay? The passes' kernel without its epilogue (C never
# written, timing only) at 3 and 4 stages, beside the passes' kernel, alternating ROUNDS times.
#   device: run(command="bash bench/stages17/run.sh", carry=["target/release/tilus-run"])
set -uo pipefail
out=${OUT:-/tmp/tilus-gpu}
VARIANTS=${VARIANTS:-"examples/hopper_matmul_persistent_passes.mlir bench/stages17/st3_noepi.mlir bench/stages17/st4_noepi.mlir bench/stages17/st3.mlir bench/stages17/st4.mlir"}
ROUNDS=${ROUNDS:-2}
summary=$out/stages17.txt
: >"$summary"
for r in $(seq 1 "$ROUNDS"); do
  for v in $VARIANTS; do
    OUT=/tmp/stages17 EXAMPLE=$v SHAPES=${SHAPES:-4096,4096,4096} DTYPES=${DTYPES:-"f16 bf16"} \
      bash bench/gpu_gemm_sweep.sh >/dev/null 2>&1
    { echo "## round $r: $v"; cat /tmp/stages17/gemm_sweep.txt; } >>"$summary"
  done
done
cat "$summary"
