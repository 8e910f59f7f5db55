#!/usr/bin/env bash
# Every GPU check and timing of the repository, in order, on the GPU machine (no Rust there):
#
#   here:   cargo build --release -p tilus-run
#   device: bash bench/gpu_all.sh          (carry target/release/tilus-run)
#
# 1. bench/gpu.sh         every example on the GPU against the interpreter; RMSNorm/softmax
#                         examples beside torch and copy bandwidth;
# 2. bench/gpu_matmul.sh  the Hopper matmuls at 4096³ and 8192³ beside cuBLAS, C against torch;
# 3. bench/gpu_norm.sh    the row-wise RMSNorm/softmax at 8192×4096 and 32768×8192 beside torch
#                         and copy bandwidth.
# Together they take about 12 minutes, longer than one call of the device tool allows; the
# figures in docs/perf.md come from one call of each script.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
for s in gpu.sh gpu_matmul.sh gpu_norm.sh; do
  echo "=== bench/$s"
  bash "bench/$s" "$@" || rc=1
done
exit $rc
