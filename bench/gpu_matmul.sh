#!/usr/bin/env bash
# Times the Hopper matmul examples on the GPU beside cuBLAS (through PyTorch) in one run, and
# checks their C against PyTorch on the same random inputs:
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_matmul.sh", carry=["target/release/tilus-run"])
#
# For M = N = K in $SIZES (default 4096 8192): f16 A [M, K] and B [N, K] from .npy files,
# `tilus-run --backend cuda --bench` (CUDA events, median of $REPS (default 30) after 5 warm-ups) for each
# example, C written with --output and compared with torch (A @ B^T in f32, then f16), then
# torch.matmul(A, B.T) in f16 timed the same way. Each tilus-run also runs `--compare cublas`:
# cuBLAS's GemmEx (f16 in, f32 accumulation, f16 out) on the same device buffers in the same
# process, its C checked against ours and timed the same way ("ours/cublas = Z%").
# One table at the end (TFLOP/s = 2MNK / t).
#
# EXAMPLES (paths, default the three Hopper examples) picks the kernels, for instance a file
# `tilus-opt --pass-pipeline='builtin.module(pipeline{stages=4})'` printed; LOWERINGS (default
# "default") runs each with other lowering pipelines too (`tilus-run --lowering`), e.g.
# LOWERINGS="default builtin.module(tilus-to-ptx{eqsat=false})".
set -uo pipefail
bin=${1:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}
tmp=/tmp/tilus-mm
mkdir -p "$out" "$tmp"
SIZES=${SIZES:-"4096 8192"}
EXAMPLES=${EXAMPLES:-"examples/hopper_matmul_v1_wgmma.mlir examples/hopper_matmul_v2_pipeline.mlir examples/hopper_matmul_v3_warp_specialized.mlir"}
LOWERINGS=${LOWERINGS:-default}
source "$(dirname "$0")/cublas_path.sh"
num_sms=$(nvidia-smi --query-gpu=name --format=csv,noheader >/dev/null 2>&1 && python3 -c 'import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)' 2>/dev/null || echo 132)
table=$out/matmul.txt
: >"$table"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee -a "$table"
for s in $SIZES; do
  python3 - "$s" "$tmp" <<'PY'
import sys, numpy as np
s, d = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(s)
np.save(f"{d}/a_{s}.npy", (rng.random((s, s), dtype=np.float32) * 2 - 1).astype(np.float16))
np.save(f"{d}/b_{s}.npy", (rng.random((s, s), dtype=np.float32) * 2 - 1).astype(np.float16))
PY
  flops=$((2 * s * s * s))
  for f in $EXAMPLES; do
  for low in $LOWERINGS; do
    ex=$(basename "$f" .mlir)
    lflag=()
    if [ "$low" != default ]; then
      lflag=(--lowering "$low")
      ex="$ex [${low#builtin.module(}"
      ex="${ex%)}]"
    fi
    extra=""
    grep -q '%num_tiles: i32' "$f" && extra="--arg num_tiles=$(((s / 128) * (s / 256)))"
    # Persistent kernels take the SM count as their grid.
    grep -q '%num_sms' "$f" && extra="$extra --arg num_sms=$num_sms"
    o=$("$bin" "$f" --backend cuda --no-reference --timeout 60 "${lflag[@]}" \
        --arg m=$s --arg n=$s --arg k=$s $extra \
        --input a=$tmp/a_$s.npy --input b=$tmp/b_$s.npy --output c=$tmp/c_$s.npy \
        --bench --bench-reps "${REPS:-30}" --bench-warmup 5 --flops $flops --compare cublas 2>&1)
    rc=$?
    echo "== $ex $s rc=$rc" >>"$out/matmul.log"
    echo "$o" >>"$out/matmul.log"
    line=$(echo "$o" | grep -E '^bench: (median|.*TFLOP)' | head -2 | tr '\n' ' ')
    cub=$(echo "$o" | grep -E '^cublas: ' | tr '\n' ' ')
    chk=$(python3 - "$s" "$tmp" <<'PY'
import sys, numpy as np, torch
s, d = int(sys.argv[1]), sys.argv[2]
try:
    c = torch.from_numpy(np.load(f"{d}/c_{s}.npy").astype(np.float32)).cuda()
except Exception as e:
    print(f"no output ({e.__class__.__name__})"); sys.exit()
a = torch.from_numpy(np.load(f"{d}/a_{s}.npy")).cuda().float()
b = torch.from_numpy(np.load(f"{d}/b_{s}.npy")).cuda().float()
ref = (a @ b.T).half().float()
err = (c - ref).abs().max().item()
print(f"max abs err vs torch {err:.3g} (|C| max {ref.abs().max().item():.3g})")
PY
)
    printf '%-36s %5d rc=%d  %s  %s\n' "$ex" "$s" "$rc" "$line" "$chk" | tee -a "$table"
    printf '%-36s %5d       %s\n' "  (same run) cuBLAS" "$s" "${cub:-no cublas line: see matmul.log}" | tee -a "$table"
    rm -f "$tmp/c_$s.npy"
  done
  done
  python3 - "$s" "$tmp" <<'PY' | tee -a "$table"
import sys, numpy as np, torch
s, d = int(sys.argv[1]), sys.argv[2]
a = torch.from_numpy(np.load(f"{d}/a_{s}.npy")).cuda()
b = torch.from_numpy(np.load(f"{d}/b_{s}.npy")).cuda()
for _ in range(3): torch.matmul(a, b.T)
ts = []
for _ in range(20):
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record(); torch.matmul(a, b.T); e1.record(); torch.cuda.synchronize()
    ts.append(e0.elapsed_time(e1))
t = sorted(ts)[len(ts) // 2]
print(f"{'torch.matmul (cuBLAS) f16':36s} {s:5d}        median {t:.3f} ms  {2*s**3/t/1e9:.1f} TFLOP/s")
PY
done
cat "$table"
