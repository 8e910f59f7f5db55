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
echo "## 3. tilus.dot on the tensor cores: GPU vs interpreter, then beside in-process cuBLAS at 4096^3" | tee -a "$log"
source "$(dirname "$0")/cublas_path.sh"
for f in examples/matmul_dot.mlir test/run/matmul_dot_no_layouts.mlir; do
  name=$(basename "$f" .mlir)
  for sz in "" "--arg m=512 --arg n=384 --arg k=256"; do
    if "$bin" "$f" --kernel matmul_dot --no-reference --backend cuda --compare-backends $sz >"$out/$name.check" 2>&1; then
      echo "$name $sz: GPU vs interpreter ok ($(grep -m1 -i 'max abs' "$out/$name.check" | head -c 120))" | tee -a "$log"
    else
      echo "$name $sz: FAILED" | tee -a "$log"; tail -5 "$out/$name.check" | tee -a "$log"
    fi
  done
  "$bin" "$f" --kernel matmul_dot --no-reference --backend cuda --arg m=4096 --arg n=4096 --arg k=4096 \
    --bench --bench-reps 30 --bench-warmup 5 --flops $((2 * 4096 * 4096 * 4096)) --compare cublas >"$out/$name.bench" 2>&1
  echo "$name 4096^3: $(grep -E '^(bench|cublas):' "$out/$name.bench" | tr '\n' ' ')" | tee -a "$log"
done
