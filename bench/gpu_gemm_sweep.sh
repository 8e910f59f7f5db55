#!/usr/bin/env bash
# Issue 17's measurement: a Hopper matmul example against in-process cuBLAS over a sweep of
# shapes, in f16 and bf16, in one run on one GPU.
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_gemm_sweep.sh", carry=["target/release/tilus-run"])
#
# For each shape M,N,K in $SHAPES and each element type in $DTYPES: random A [M, K] and
# B [N, K] (uniform in [-1, 1), rounded to the type; bf16 inputs travel as f32 .npy files
# holding bf16 values, which tilus-run rounds exactly), then
#   tilus-run EXAMPLE --backend cuda --bench --bench-reps $REPS --compare cublas
# which times the kernel (CUDA events, median of $REPS after warm-up), runs cuBLAS's GemmEx on
# the same device buffers in the same process (same type in and out, f32 accumulation), checks
# our C against cuBLAS's and times cuBLAS the same way. Our C (written with --output) is also
# checked against an f64 reference (A·Bᵀ in float64, rounded to the type): the largest error
# is printed beside |C|'s largest value. The bf16 kernel is the example with every `f16`
# spelled `bf16` (the kernels are written for 16-bit inputs and f32 accumulation).
#
# EXAMPLE picks the kernel (it takes m, n, k and num_sms). The default, `auto`, is how a caller
# of our GEMMs would choose, per shape, before looking at any timing: the split-K matmul
# (examples/hopper_matmul_v7_split_k.mlir) when C has fewer 128 x 256 tiles than half the SMs
# (a tile per block would leave most SMs idle), else the persistent matmul as the passes make
# it (examples/hopper_matmul_persistent_passes.mlir); the table names the kernel each row ran.
# PTX_OVERRIDE, if set, is a path with `{dt}` in it (f16 or bf16): that PTX file is launched
# instead of the lowering's (`tilus-run --ptx-override`), to time hand edits of the PTX.
# NUM_SMS overrides the `num_sms` argument (default: the device's SM count), to time a kernel on
# a smaller persistent grid.
# LOWERING (default: tilus-run's),
# SHAPES, DTYPES, REPS (default 30) can be set from the environment. Table: $OUT/gemm_sweep.txt.
set -uo pipefail
bin=${1:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}
tmp=/tmp/tilus-sweep
mkdir -p "$out" "$tmp"
EXAMPLE=${EXAMPLE:-auto}
LOWERING=${LOWERING:-}
REPS=${REPS:-30}
DTYPES=${DTYPES:-"f16 bf16"}
SHAPES=${SHAPES:-"4096,4096,4096 8192,8192,8192 1024,1024,1024 2048,2048,2048 16384,16384,16384 16384,1024,4096 1024,16384,4096 4096,4096,16384 8192,2048,8192 2048,8192,1024 16384,16384,1024 1024,1024,16384 4096,16384,8192"}
source "$(dirname "$0")/cublas_path.sh"
num_sms=$(python3 -c 'import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)' 2>/dev/null || echo 132)
num_sms=${NUM_SMS:-$num_sms}
lflag=()
[ -n "$LOWERING" ] && lflag=(--lowering "$LOWERING")
PTX_OVERRIDE=${PTX_OVERRIDE:-}
table=$out/gemm_sweep.txt
: >"$table"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "example: $EXAMPLE  lowering: ${LOWERING:-default}  ptx: ${PTX_OVERRIDE:-lowered}  reps: $REPS  SMs: $num_sms"
  printf '%-5s %-18s %10s %10s %8s %s\n' dtype "M,N,K" "ours TF/s" "cuBLAS TF/s" "ratio" "checks"
} | tee -a "$table"
for dt in $DTYPES; do
  for shape in $SHAPES; do
    IFS=, read -r m n k <<<"$shape"
    ex=$EXAMPLE
    if [ "$ex" = auto ]; then
      if [ $(( ((m + 127) / 128) * ((n + 255) / 256) * 2 )) -lt "$num_sms" ]; then
        ex=examples/hopper_matmul_v7_split_k.mlir
      else
        ex=examples/hopper_matmul_persistent_passes.mlir
      fi
    fi
    kfile=$tmp/kernel_$dt.mlir
    if [ "$dt" = f16 ]; then cp "$ex" "$kfile"; else sed 's/f16/bf16/g' "$ex" >"$kfile"; fi
    python3 - "$m" "$n" "$k" "$dt" "$tmp" <<'PY'
import sys, numpy as np, torch
m, n, k, dt, d = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
g = torch.Generator().manual_seed(m * 7 + n * 13 + k)
tt = torch.float16 if dt == "f16" else torch.bfloat16
a = (torch.rand((m, k), generator=g) * 2 - 1).to(tt)
b = (torch.rand((n, k), generator=g) * 2 - 1).to(tt)
store = (lambda x: x.numpy()) if dt == "f16" else (lambda x: x.float().numpy())
np.save(f"{d}/a.npy", store(a)); np.save(f"{d}/b.npy", store(b))
PY
    pflag=()
    [ -n "$PTX_OVERRIDE" ] && pflag=(--ptx-override "${PTX_OVERRIDE//\{dt\}/$dt}")
    flops=$((2 * m * n * k))
    o=$("$bin" "$kfile" --backend cuda --no-reference --timeout 120 "${lflag[@]}" "${pflag[@]}" \
        --arg m=$m --arg n=$n --arg k=$k --arg num_sms=$num_sms \
        --input a=$tmp/a.npy --input b=$tmp/b.npy --output c=$tmp/c.npy \
        --bench --bench-reps "$REPS" --bench-warmup 5 --flops $flops --compare cublas 2>&1)
    rc=$?
    { echo "== $dt $shape rc=$rc"; echo "$o"; } >>"$out/gemm_sweep.log"
    ours=$(echo "$o" | sed -nE 's/^bench: ([0-9.]+) TFLOP\/s.*/\1/p' | head -1)
    theirs=$(echo "$o" | sed -nE 's/^cublas: median [0-9.]+ ms, ([0-9.]+) TFLOP\/s.*/\1/p' | head -1)
    ratio=$(echo "$o" | sed -nE 's/.*ours\/cublas = ([0-9.]+)%.*/\1/p' | head -1)
    vs_cublas=$(echo "$o" | sed -nE 's/.*check c vs cuBLAS \([^)]*\): ([A-Za-z]+).*/\1/p' | head -1)
    ref=$(python3 - "$m" "$n" "$k" "$dt" "$tmp" <<'PY'
import sys, numpy as np, torch
m, n, k, dt, d = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
try:
    c = torch.from_numpy(np.load(f"{d}/c.npy").astype(np.float64)).cuda()
except Exception as e:
    print(f"no output ({e.__class__.__name__})"); sys.exit()
a = torch.from_numpy(np.load(f"{d}/a.npy")).cuda().double()
b = torch.from_numpy(np.load(f"{d}/b.npy")).cuda().double()
tt = torch.float16 if dt == "f16" else torch.bfloat16
r = (a @ b.T).to(tt).double()
err = (c - r).abs().max().item()
print(f"f64 ref: max abs err {err:.3g} (|C| max {r.abs().max().item():.3g})")
PY
)
    printf '%-5s %-18s %10s %10s %7s%% vs cuBLAS %s; %s rc=%d %s\n' "$dt" "$shape" "${ours:-?}" "${theirs:-?}" "${ratio:-?}" "${vs_cublas:-?}" "$ref" "$rc" "$(basename "$ex" .mlir)" | tee -a "$table"
    rm -f "$tmp/c.npy"
  done
done
