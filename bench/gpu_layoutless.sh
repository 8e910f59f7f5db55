#!/usr/bin/env bash
# The layout-less test kernels of test/kernels/ (issue 16) on the GPU, in one call on the GPU
# machine (no Rust there):
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_layoutless.sh", carry=["target/release/tilus-run"])
#
# 1. Each kernel with --backend cuda --compare-backends (GPU against the CPU interpreter) at its
#    default arguments (tilus.args), then 2. --bench (CUDA events, median) at a large shape,
#    which prints GB/s from the kernel's tilus.bytes and the device's own copy bandwidth on the
#    largest buffer ("kernel at N% of copy"). Logs go to $OUT (or /tmp/tilus-gpu-layoutless).
set -uo pipefail
bin=${BIN:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu-layoutless}
mkdir -p "$out"
log=$out/gpu_layoutless.log
: >"$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$log"
echo "## 1. GPU vs interpreter" | tee -a "$log"
for k in layernorm rmsnorm softmax gemv column_sum transpose; do
  if "$bin" "test/kernels/$k.mlir" --kernel "$k" --no-reference --backend cuda --compare-backends >"$out/$k.check" 2>&1; then
    echo "$k: ok ($(grep -m1 -i 'max abs' "$out/$k.check" | head -c 160))" | tee -a "$log"
  else
    echo "$k: FAILED" | tee -a "$log"; tail -5 "$out/$k.check" | tee -a "$log"
  fi
done
echo "## 2. --bench" | tee -a "$log"
bench() {
  local k=$1; shift
  "$bin" "test/kernels/$k.mlir" --kernel "$k" --no-reference --backend cuda --bench "$@" >"$out/$k.bench" 2>&1
  echo "$k $*: $(grep '^bench:' "$out/$k.bench" | tr '\n' ' ')" | tee -a "$log"
}
bench layernorm --arg m=16384
bench rmsnorm --arg m=16384
bench softmax --arg m=16384
bench gemv --arg m=16384 --arg k=8192
bench column_sum --arg m=8192 --arg n=8192
bench transpose --arg m=8192 --arg n=8192
