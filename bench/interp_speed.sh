#!/usr/bin/env bash
# Interpreter speed (issue 19): the wall times `tilus-run --timing` reports for the interpreter
# phase, the median of REPS runs (the machine is shared), for the kernels the issue names.
# Usage: bash bench/interp_speed.sh [TILUS_RUN] [extra tilus-run flags, e.g. --threads 1]
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
  all_i="" all_c="" all_w=""
  for _ in $(seq "$REPS"); do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    err=$("$BIN" $args --backend interp --timing "$@" 2>&1 >/dev/null)
    end=$(date +%s.%N)
    # The kernel's "Interpreter @kernel" row, and "Checks @kernel" (which runs the reference).
    i=$(printf '%s\n' "$err" | awk '/Interpreter @/ {s += $1} END {print s + 0}')
    c=$(printf '%s\n' "$err" | awk '/Checks @/ {s += $1} END {print s + 0}')
    w=$(echo "$end - $start" | bc)
    all_i="$all_i $i" all_c="$all_c $c" all_w="$all_w $w"
  done
  med() { python3 -c "import statistics, sys; print(statistics.median(map(float, sys.argv[1:])))" $1; }
  printf '| %s | %.3f | %.3f | %.3f |\n' "$name" "$(med "$all_i")" "$(med "$all_c")" "$(med "$all_w")"
done
