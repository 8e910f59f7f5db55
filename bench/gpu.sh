#!/usr/bin/env bash
# Runs the examples on the GPU through `tilus-run --backend cuda` and times RMSNorm and softmax
# beside the device's copy bandwidth and PyTorch, in one call on the GPU machine (no Rust there):
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu.sh", carry=["target/release/tilus-run"], kind nvidia-h100-x1)
#
# 1. Every simple example with --compare-backends (GPU against the CPU interpreter, tolerances
#    of check::backend_tolerance) at its default size and at a larger one; the Hopper matmuls
#    and the mbarrier pipeline against their reference kernels too.
# 2. RMSNorm (f16 -> f16) and softmax (f32 -> f16, as examples/softmax.mlir is written) at
#    8192x4096 and 32768x8192: --bench (5 warm-up, median of 50, CUDA events), inputs from
#    .npy files that PyTorch then checks the outputs against (rms_norm / softmax in f32); the
#    interpreter comparison at 8192x4096 only (it is slow at the larger size).
# 3. PyTorch on the same shapes (CUDA events, median of 50): F.rms_norm, torch.softmax (f16 and
#    f32 inputs) and y.copy_(x) for the copy bandwidth. One table at the end.
# Logs and JSON go to $OUT (or /tmp/tilus-gpu).
set -uo pipefail
bin=${1:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}
tmp=/tmp/tilus-gpu-data
mkdir -p "$out" "$tmp"
log=$out/gpu.log
: >"$log"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader 2>&1 | tee -a "$log"

results=$out/checks.txt
: >"$results"
# shellcheck source=gpu/lib.sh
source "$(dirname "$0")/gpu/lib.sh"

echo "## 1. examples on the GPU vs the interpreter" | tee -a "$log"
C="--backend cuda --compare-backends"
check "vector_add n=3000" examples/vector_add.mlir $C
check "vector_add n=2^22+5" examples/vector_add.mlir $C --arg n=4194309
check "row_sum 8x300" examples/reduction.mlir --kernel row_sum $C
check "row_sum 1024x4100" examples/reduction.mlir --kernel row_sum $C --arg m=1024 --arg n=4100
check "block_sum n=8192" examples/reduction.mlir --kernel block_sum $C
check "block_sum n=2^22" examples/reduction.mlir --kernel block_sum $C --arg n=4194304
check "softmax 8x512" examples/softmax.mlir $C
check "softmax 1024x4096" examples/softmax.mlir $C --arg m=1024 --arg n=4096
check "rmsnorm 256x512" examples/rmsnorm.mlir $C
check "rmsnorm 1024x2048" examples/rmsnorm.mlir $C --arg m=1024 --arg n=2048
check "add_bias 40x200" examples/stencil.mlir --kernel add_bias $C
check "add_bias 2000x3000" examples/stencil.mlir --kernel add_bias $C --arg m=2000 --arg n=3000
check "stencil3 n=300" examples/stencil.mlir --kernel stencil3 $C
check "stencil3 n=2^22+1" examples/stencil.mlir --kernel stencil3 $C --arg n=4194305
check "split_work (thread_groups)" examples/thread_groups.mlir --kernel split_work $C
check "producer_consumer (mbarrier)" examples/mbarrier_loop.mlir --kernel producer_consumer $C
check "hopper_matmul_v1 (wgmma)" examples/hopper_matmul_v1_wgmma.mlir $C
check "hopper_matmul_v2 (pipeline)" examples/hopper_matmul_v2_pipeline.mlir $C
check "hopper_matmul_ws (v3)" examples/hopper_matmul_v3_warp_specialized.mlir $C

echo "## 2. RMSNorm and softmax: --bench" | tee -a "$log"
python3 - "$tmp" <<'PY' 2>&1 | tee -a "$log"
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
for m, n in [(8192, 4096), (32768, 8192)]:
    x = rng.uniform(-1, 1, size=(m, n)).astype(np.float32)
    np.save(f"{d}/x32_{m}x{n}.npy", x)
    np.save(f"{d}/x16_{m}x{n}.npy", x.astype(np.float16))
    np.save(f"{d}/w16_{n}.npy", rng.uniform(-1, 1, size=(n,)).astype(np.float16))
print("inputs written")
PY
for s in 8192x4096 32768x8192; do
  m=${s%x*}
  n=${s#*x}
  extra=""
  [ "$s" = 8192x4096 ] && extra="--compare-backends"
  check "rmsnorm $s bench" examples/rmsnorm.mlir --backend cuda $extra --arg m=$m --arg n=$n \
    --input x=$tmp/x16_$s.npy --input w=$tmp/w16_$n.npy --output y=$tmp/y_rmsnorm_$s.npy \
    --bench --bench-reps 50 --bench-json "$out/rmsnorm_$s.json"
  check "softmax $s bench" examples/softmax.mlir --backend cuda $extra --arg m=$m --arg n=$n \
    --input x=$tmp/x32_$s.npy --output y=$tmp/y_softmax_$s.npy \
    --bench --bench-reps 50 --bench-json "$out/softmax_$s.json"
done
grep -h '^bench:' "$log" | tee -a "$out/bench-lines.txt" >/dev/null

echo "## 3. PyTorch on the same shapes, and the table" | tee -a "$log"
python3 - "$tmp" "$out" <<'PY' 2>&1 | tee -a "$log"
import sys, json, os, numpy as np, torch
import torch.nn.functional as F
d, out = sys.argv[1], sys.argv[2]
dev = torch.device("cuda")
def bench(f, warm=5, reps=50):
    for _ in range(warm): f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); f(); b.record(); ts.append((a, b))
    torch.cuda.synchronize()
    t = sorted(a.elapsed_time(b) for a, b in ts)
    return t[len(t) // 2]
rows = []
print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
for m, n in [(8192, 4096), (32768, 8192)]:
    s = f"{m}x{n}"
    x16 = torch.from_numpy(np.load(f"{d}/x16_{s}.npy")).to(dev)
    x32 = torch.from_numpy(np.load(f"{d}/x32_{s}.npy")).to(dev)
    w16 = torch.from_numpy(np.load(f"{d}/w16_{n}.npy")).to(dev)
    # Our outputs against PyTorch in f32.
    ref = F.rms_norm(x16.float(), (n,), w16.float(), 1e-5)
    ours = torch.from_numpy(np.load(f"{d}/y_rmsnorm_{s}.npy")).to(dev).float()
    err_rms = (ours - ref).abs().max().item()
    ref = torch.softmax(x32, -1)
    ours = torch.from_numpy(np.load(f"{d}/y_softmax_{s}.npy")).to(dev).float()
    err_sm = (ours - ref).abs().max().item()
    y16 = torch.empty_like(x16)
    copy_ms = bench(lambda: y16.copy_(x16))
    copy_gbs = 2 * x16.numel() * 2 / copy_ms / 1e6
    t_rms = bench(lambda: F.rms_norm(x16, (n,), w16, 1e-5))
    t_sm16 = bench(lambda: torch.softmax(x16, -1))
    t_sm32 = bench(lambda: torch.softmax(x32, -1).half())
    mn = m * n
    for kern, tt, tbytes, err in [("rmsnorm", t_rms, 4 * mn + 2 * n, err_rms), ("softmax", t_sm16, 4 * mn, err_sm)]:
        j = json.load(open(f"{out}/{kern}_{s}.json")) if os.path.exists(f"{out}/{kern}_{s}.json") else {}
        rows.append(dict(kernel=kern, shape=s, ours_ms=j.get("median_ms"), ours_gbs=j.get("gb_per_s"),
                         ours_copy_gbs=j.get("copy_gb_per_s"), regs=j.get("registers"), grid=j.get("grid"),
                         torch_ms=tt, torch_gbs=tbytes / tt / 1e6, torch_copy_gbs=copy_gbs, max_err_vs_torch=err,
                         torch_sm_f32_in_ms=t_sm32 if kern == "softmax" else None))
    del x16, x32, y16
    torch.cuda.empty_cache()
json.dump(rows, open(f"{out}/table.json", "w"), indent=1)
f = lambda v, p=1: "-" if v is None else f"{v:.{p}f}"
print()
print("| kernel | shape | ours ms | ours GB/s | copy GB/s (tilus-run) | ours / copy | torch ms | torch GB/s | torch copy GB/s | ours / torch | regs | max abs err vs torch f32 |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    ratio = None if r["ours_gbs"] is None else 100 * r["ours_gbs"] / r["ours_copy_gbs"]
    vs = None if r["ours_ms"] is None else 100 * r["torch_ms"] / r["ours_ms"]
    print(f"| {r['kernel']} | {r['shape']} | {f(r['ours_ms'],4)} | {f(r['ours_gbs'])} | {f(r['ours_copy_gbs'])} | {f(ratio)}% | "
          f"{f(r['torch_ms'],4)} | {f(r['torch_gbs'])} | {f(r['torch_copy_gbs'])} | {f(vs)}% | {r['regs']} | {r['max_err_vs_torch']:.2e} |")
for r in rows:
    if r["torch_sm_f32_in_ms"]:
        print(f"torch softmax f32 in -> f16 out ({r['shape']}, two kernels): {r['torch_sm_f32_in_ms']:.4f} ms")
PY
echo
echo "## checks"
cat "$results"
