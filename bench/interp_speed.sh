#!/usr/bin/env bash
# Interpreter speed (issue 19): the wall times `tilus-run --timing` reports for the interpreter
# phase, the minimum of REPS runs (the machine is shared), for the kernels the issue names.
# Usage: bash bench/interp_speed.sh [TILUS_RUN] [extra tilus-run flags, e.g. --schedule random]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/tilus-run}
shift || true
REPS=${REPS:-3}
MM=examples/hopper_matmul_v3_warp_specialized.mlir
cases=(
  "ws-matmul 1024^3|$MM --arg m=1024 --arg n=1024 --arg k=1024 --arg num_tiles=32 --no-reference"
  "ws-matmul 1024^3 + reference|$MM --arg m=1024 --arg n=1024 --arg k=1024 --arg num_tiles=32"
  "ws-matmul 256^3|$MM --arg m=256 --arg n=256 --arg k=256 --arg num_tiles=2 --no-reference"
  "ws-matmul 256^3 + reference|$MM --arg m=256 --arg n=256 --arg k=256 --arg num_tiles=2"
  "softmax 4096x4096|examples/softmax.mlir --arg m=4096 --arg n=4096"
  "rmsnorm 4096x4096|examples/rmsnorm.mlir --arg m=4096 --arg n=4096"
)
printf '| case | interpreter s | checks s (reference run + compare) | whole run s |\n|---|---:|---:|---:|\n'
for c in "${cases[@]}"; do
  name=${c%%|*}
  args=${c#*|}
  best_i=inf best_c=inf best_w=inf
  for _ in $(seq "$REPS"); do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    err=$("$BIN" $args --backend interp --timing "$@" 2>&1 >/dev/null)
    end=$(date +%s.%N)
    # The kernel's "Interpreter @kernel" row, and "Checks @kernel" (which runs the reference).
    i=$(printf '%s\n' "$err" | awk '/Interpreter @/ {s += $1} END {print s + 0}')
    c=$(printf '%s\n' "$err" | awk '/Checks @/ {s += $1} END {print s + 0}')
    w=$(echo "$end - $start" | bc)
    best_i=$(python3 -c "print(min(float('$best_i'), $i))")
    best_c=$(python3 -c "print(min(float('$best_c'), $c))")
    best_w=$(python3 -c "print(min(float('$best_w'), $w))")
  done
  printf '| %s | %.3f | %.3f | %.3f |\n' "$name" "$best_i" "$best_c" "$best_w"
done
