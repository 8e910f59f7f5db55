#!/usr/bin/env bash
# Issue 17 experiment: the passes' kernel with its PTX edited by split.py (N = 1, 2 wgmmas of
# the next k step queued before the previous stage's release), alternating with the unedited
# PTX, ROUNDS times, through bench/gpu_gemm_sweep.sh's PTX_OVERRIDE. The variant `lowered` is
# the binary's own lowering (no override).
#   device: run(command="bash bench/split17/run.sh", carry=["target/carry/tilus-run"])
set -uo pipefail
out=${OUT:-/tmp/tilus-gpu}
ROUNDS=${ROUNDS:-2}
VARIANTS=${VARIANTS:-"base s1 s2"}
# base_{dt}.ptx is the lowering's PTX before the uniform role tests (commit d518785); sN_{dt}.ptx
# are made from it by split.py.
for dt in f16 bf16; do
  for nn in 1 2; do
    [ -f bench/split17/s${nn}_$dt.ptx ] || python3 bench/split17/split.py bench/split17/base_$dt.ptx bench/split17/s${nn}_$dt.ptx $nn
  done
done
summary=$out/split17.txt
: >"$summary"
for r in $(seq 1 "$ROUNDS"); do
  for v in $VARIANTS; do
    ptx="bench/split17/${v}_{dt}.ptx"
    [ "$v" = lowered ] && ptx=
    OUT=/tmp/split17 EXAMPLE=examples/hopper_matmul_persistent_passes.mlir PTX_OVERRIDE="$ptx" \
      SHAPES=${SHAPES:-"4096,4096,4096 8192,8192,8192"} DTYPES=${DTYPES:-"f16 bf16"} \
      bash bench/gpu_gemm_sweep.sh ${BIN:-target/release/tilus-run} >/dev/null 2>&1
    { echo "## round $r: $v"; cat /tmp/split17/gemm_sweep.txt; } >>"$summary"
  done
done
cat "$summary"
