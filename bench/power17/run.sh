#!/usr/bin/env bash
# Issue 17: where the passes' kernel and cuBLAS differ at 4096^3 beyond tensor-pipe time.
#  1. Power and SM clock while each is timed back to back (nvidia-smi every 20 ms during a long
#     --bench of ours, then cuBLAS's in the same process): is the card at its power limit, and
#     does one kernel run at a lower clock than the other?
#  2. ncu's executed SASS per instruction (source page) and per opcode for ours and cuBLAS's:
#     where our 1.5x warp instructions go.
#   device: run(command="bash bench/power17/run.sh", carry=["target/carry/tilus-run"])
set -u
source "$(dirname "$0")/../cublas_path.sh"
bin=${BIN:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}; mkdir -p "$out"
tmp=/tmp/power17; mkdir -p $tmp
s=${S:-4096}
REPS=${REPS:-6000}
EX=${EX:-examples/hopper_matmul_persistent_passes.mlir}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
nvidia-smi --query-gpu=timestamp,power.draw,power.limit,clocks.sm,clocks.mem,temperature.gpu,clocks_event_reasons.active --format=csv,noheader -lms 20 >"$out/smi.csv" 2>&1 &
smi=$!
sleep 1
for dt in f16 bf16; do
  k=$tmp/k_$dt.mlir
  if [ $dt = f16 ]; then cp $EX $k; else sed 's/f16/bf16/g' $EX >$k; fi
  python3 - $s $dt $tmp <<'PY'
import sys, numpy as np, torch
s, dt, d = int(sys.argv[1]), sys.argv[2], sys.argv[3]
g = torch.Generator().manual_seed(s * 20 + 1)
tt = torch.float16 if dt == "f16" else torch.bfloat16
a = (torch.rand((s, s), generator=g) * 2 - 1).to(tt); b = (torch.rand((s, s), generator=g) * 2 - 1).to(tt)
st = (lambda x: x.numpy()) if dt == "f16" else (lambda x: x.float().numpy())
np.save(f"{d}/a_{dt}.npy", st(a)); np.save(f"{d}/b_{dt}.npy", st(b))
PY
  echo "phase $dt start $(date +%H:%M:%S.%N)" | tee -a "$out/phases.txt"
  $bin $k --backend cuda --no-reference --arg m=$s --arg n=$s --arg k=$s --arg num_sms=132 \
    --input a=$tmp/a_$dt.npy --input b=$tmp/b_$dt.npy --bench --bench-reps $REPS --bench-warmup 20 \
    --flops $((2*s*s*s)) --compare cublas 2>&1 | while IFS= read -r line; do echo "$(date +%H:%M:%S.%N) $line"; done | tee -a "$out/phases.txt"
  sleep 2
done
kill $smi
args="--backend cuda --no-reference --arg m=$s --arg n=$s --arg k=$s --arg num_sms=132 --input a=$tmp/a_f16.npy --input b=$tmp/b_f16.npy --bench --bench-reps 1 --bench-warmup 1 --flops $((2*s*s*s)) --compare cublas"
$NCU --clock-control none --section InstructionStats --section SourceCounters --import-source no -k regex:hopper -c 1 -o $tmp/ours -f $bin $tmp/k_f16.mlir $args >/dev/null 2>&1
$NCU --clock-control none --section InstructionStats --section SourceCounters -k regex:'^(?!hopper)' -c 1 -o $tmp/cublas -f $bin $tmp/k_f16.mlir $args >/dev/null 2>&1
for r in ours cublas; do
  $NCU -i $tmp/$r.ncu-rep --page details --print-details all >"$out/ncu_$r.txt" 2>&1
  $NCU -i $tmp/$r.ncu-rep --page source --print-source sass --csv >"$tmp/sass_$r.csv" 2>&1
  gzip -c $tmp/sass_$r.csv >"$out/sass_$r.csv.gz"
done
ls -la $out
