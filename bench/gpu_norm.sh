#!/usr/bin/env bash
# Row-wise RMSNorm and softmax (examples/rmsnorm_rowwise.mlir, examples/softmax_rowwise.mlir;
# f16 in, f16 out, f32 math) on the GPU, beside PyTorch and the device's copy bandwidth, in one
# call on the GPU machine (no Rust there):
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_norm.sh", carry=["target/release/tilus-run"], kind nvidia-h100-x1)
#
# About 7 minutes on an H100 (most of it tilus-run reading and writing the 512 MiB .npy files
# of the 32768x8192 runs); RMS_KERNELS="rmsnorm_4096 rmsnorm_8192" SM_KERNELS="softmax_4096
# softmax_8192" times only the two kernels of each file, not the layout variants.
#
# 1. Every kernel named below with --backend cuda --compare-backends (GPU against the CPU
#    interpreter, tolerances of check::backend_tolerance) at m = 256, and the default kernels at
#    m = 250 too (the last block runs past m: the predicated path).
# 2. --bench (5 warm-up launches, median of 50, CUDA events) at each shape of SIZES whose column
#    count is the kernel's (the kernels are written for 4096 or 8192 columns), inputs from .npy
#    files; the outputs are written back and checked against PyTorch in f32 (F.rms_norm,
#    torch.softmax) with atol = rtol = 1e-2.
# 3. PyTorch on the same f16 tensors (CUDA events, median of 50 after 5): F.rms_norm,
#    torch.softmax and y.copy_(x); one table at the end. GB/s counts one read of x and one
#    write of y (4 M N bytes; the kernels' tilus.bytes) for ours and torch's alike; "% copy" is
#    against tilus-run's own device-to-device copy of x (read + write) and torch's y.copy_(x).
#
# Environment: RMS_KERNELS, SM_KERNELS (kernel names, by default every kernel of the two files;
# the digits after the first '_' are the column count), SIZES ("MxN ..."), BIN (the tilus-run
# binary). Logs and the table go to $OUT (or /tmp/tilus-gpu-norm); data and JSON to
# /tmp/tilus-gpu-norm-data.
set -uo pipefail
bin=${BIN:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu-norm}
tmp=/tmp/tilus-gpu-norm-data
RMS_KERNELS=${RMS_KERNELS:-"rmsnorm_4096 rmsnorm_8192 rmsnorm_4096_r1g8 rmsnorm_4096_r4g2 rmsnorm_8192_r1g16 rmsnorm_8192_r2g4"}
SM_KERNELS=${SM_KERNELS:-"softmax_4096 softmax_8192 softmax_4096_r1g4 softmax_4096_r4g1 softmax_8192_r1g8 softmax_8192_r2g2"}
SIZES=${SIZES:-"8192x4096 32768x8192"}
mkdir -p "$out" "$tmp"
log=$out/gpu_norm.log
: >"$log"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader 2>&1 | tee -a "$log"

results=$out/checks.txt
: >"$results"
# shellcheck source=gpu/lib.sh
source "$(dirname "$0")/gpu/lib.sh"
file_of() { case $1 in rmsnorm*) echo examples/rmsnorm_rowwise.mlir ;; *) echo examples/softmax_rowwise.mlir ;; esac; }
cols_of() { local s=${1#*_}; echo "${s%%_*}"; }

echo "## 1. GPU vs interpreter" | tee -a "$log"
C="--backend cuda --compare-backends"
for k in $RMS_KERNELS $SM_KERNELS; do
  check "$k m=256" "$(file_of "$k")" --kernel "$k" $C --arg m=256
done
for k in rmsnorm_4096 rmsnorm_8192 softmax_4096 softmax_8192; do
  check "$k m=250" "$(file_of "$k")" --kernel "$k" $C --arg m=250
done

echo "## 2. --bench" | tee -a "$log"
python3 - "$tmp" $SIZES <<'PY' 2>&1 | tee -a "$log"
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
for s in sys.argv[2:]:
    m, n = map(int, s.split("x"))
    # Logits-like values for softmax, and a spread of row norms for RMSNorm.
    x = (rng.standard_normal((m, n), dtype=np.float32) * 2).astype(np.float16)
    np.save(f"{d}/x_{s}.npy", x)
    np.save(f"{d}/w_{n}.npy", rng.uniform(-1, 1, size=(n,)).astype(np.float16))
print("inputs written")
PY
for s in $SIZES; do
  m=${s%x*}
  n=${s#*x}
  for k in $RMS_KERNELS $SM_KERNELS; do
    [ "$(cols_of "$k")" = "$n" ] || continue
    w=""
    case $k in rmsnorm*) w="--input w=$tmp/w_$n.npy" ;; esac
    check "$k $s bench" "$(file_of "$k")" --kernel "$k" --backend cuda --arg m="$m" \
      --input x="$tmp/x_$s.npy" $w --output y="$tmp/y_${k}_$s.npy" \
      --bench --bench-reps 50 --bench-json "$tmp/${k}_$s.json"
  done
done

echo "## 3. PyTorch on the same tensors, and the table" | tee -a "$log"
python3 - "$tmp" "$out" "$SIZES" "$RMS_KERNELS $SM_KERNELS" <<'PY' 2>&1 | tee -a "$log"
import sys, json, os, numpy as np, torch
import torch.nn.functional as F
d, out, sizes, kernels = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
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
print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
rows, ok = [], True
for s in sizes:
    m, n = map(int, s.split("x"))
    x16 = torch.from_numpy(np.load(f"{d}/x_{s}.npy")).to(dev)
    w16 = torch.from_numpy(np.load(f"{d}/w_{n}.npy")).to(dev)
    y16 = torch.empty_like(x16)
    copy_ms = bench(lambda: y16.copy_(x16))
    copy_gbs = 4 * m * n / copy_ms / 1e6
    t_rms = bench(lambda: F.rms_norm(x16, (n,), w16, 1e-5))
    t_sm = bench(lambda: torch.softmax(x16, -1))
    refs = {"rmsnorm": F.rms_norm(x16.float(), (n,), w16.float(), 1e-5), "softmax": torch.softmax(x16.float(), -1)}
    tms = {"rmsnorm": t_rms, "softmax": t_sm}
    for k in kernels:
        kind = k.split("_")[0]
        jp = f"{d}/{k}_{s}.json"
        if not os.path.exists(jp):
            continue
        j = json.load(open(jp))
        ref = refs[kind]
        ours = torch.from_numpy(np.load(f"{d}/y_{k}_{s}.npy")).to(dev).float()
        diff = (ours - ref).abs()
        err = diff.max().item()
        passed = bool((diff <= 1e-2 + 1e-2 * ref.abs()).all().item())
        ok &= passed
        gbs = 4 * m * n / j["median_ms"] / 1e6
        rows.append(dict(kernel=k, shape=s, regs=j["registers"], grid=j["grid"], block=j["block"],
                         ms=j["median_ms"], gbs=gbs, tilus_copy_gbs=j["copy_gb_per_s"],
                         torch_copy_gbs=copy_gbs, torch_ms=tms[kind], torch_gbs=4 * m * n / tms[kind] / 1e6,
                         max_err=err, passed=passed))
        del ours, diff
    del x16, y16, w16, refs
    torch.cuda.empty_cache()
json.dump(rows, open(f"{out}/table.json", "w"), indent=1)
lines = ["| kernel | M x N | regs | grid x block | ms | GB/s | % copy (tilus-run) | % copy (torch) | torch ms | torch GB/s | torch % copy | torch ms / ours | max abs err vs torch f32 |",
         "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
for r in rows:
    lines.append(f"| {r['kernel']} | {r['shape']} | {r['regs']} | {r['grid']} x {r['block']} | {r['ms']:.4f} | {r['gbs']:.0f} | "
                 f"{100 * r['gbs'] / r['tilus_copy_gbs']:.1f}% | {100 * r['gbs'] / r['torch_copy_gbs']:.1f}% | "
                 f"{r['torch_ms']:.4f} | {r['torch_gbs']:.0f} | {100 * r['torch_gbs'] / r['torch_copy_gbs']:.1f}% | "
                 f"{100 * r['torch_ms'] / r['ms']:.0f}% | {r['max_err']:.2e} {'ok' if r['passed'] else 'FAIL'} |")
for s in sizes:
    c = [r for r in rows if r["shape"] == s]
    if c:
        lines.append(f"copy {s}: tilus-run {c[0]['tilus_copy_gbs']:.0f} GB/s, torch y.copy_(x) {c[0]['torch_copy_gbs']:.0f} GB/s")
print()
print("\n".join(lines))
open(f"{out}/table.md", "w").write("\n".join(lines) + "\n")
print("outputs vs torch:", "all within atol = rtol = 1e-2" if ok else "SOME FAILED")
PY
echo
echo "## checks"
cat "$results"
