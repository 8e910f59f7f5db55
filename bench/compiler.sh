#!/usr/bin/env bash
# Compiler speed: tilus-opt beside mlir-opt (single-threaded) in the same run.
#
# For files of 10k, 100k and 1M ops (bench/gen_ir.py), times parse + verify + print (generic
# form) and the pipeline `canonicalize,cse`, reporting wall time (median of REPS runs) and peak
# RSS of each tool, and the ratio. Prints a Markdown table; docs/perf.md records one run.
#
# usage: bench/compiler.sh [SIZES...]   (default: 10000 100000 1000000; REPS=3)
#
# With TILUS_BASE=/path/to/another/tilus-opt (e.g. one built from the base commit of a change),
# that binary is timed too, on the same files in the same run, and the table gains its columns
# and the change against it.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIR_OPT=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
REPS=${REPS:-3}
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(10000 100000 1000000)
cargo build --release -q -p tilus-opt
TILUS=target/release/tilus-opt
BASE=${TILUS_BASE:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Runs a command REPS times; prints "median_seconds max_rss_kb".
measure() {
  local times=() rss=0
  for _ in $(seq "$REPS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/t" "$@" > /dev/null
    read -r t m < "$WORK/t"
    times+=("$t")
    [ "$m" -gt "$rss" ] && rss=$m
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v r="$rss" '{a[NR]=$1} END {print a[int((NR+1)/2)], r}'
}

have_pipeline=0
if "$TILUS" --pass-pipeline='builtin.module(canonicalize,cse)' --allow-unregistered-dialect --no-output /dev/null 2>/dev/null <<< ''; then
  have_pipeline=1
fi

if [ -n "$BASE" ]; then
  echo "| ops | job | base s | tilus-opt s | change | mlir-opt s | speed-up | base MiB | tilus-opt MiB | mlir-opt MiB |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| ops | job | tilus-opt s | mlir-opt s | speed-up | tilus-opt MiB | mlir-opt MiB |"
  echo "|---:|---|---:|---:|---:|---:|---:|"
fi
for n in "${SIZES[@]}"; do
  f="$WORK/b$n.mlir"
  python3 bench/gen_ir.py "$n" "$f"
  jobs=("print")
  [ $have_pipeline = 1 ] && jobs+=("canonicalize,cse")
  for job in "${jobs[@]}"; do
    if [ "$job" = print ]; then
      targs=(--allow-unregistered-dialect --print-op-generic "$f")
      margs=(--mlir-disable-threading --allow-unregistered-dialect --mlir-print-op-generic "$f")
    else
      targs=(--allow-unregistered-dialect --print-op-generic "--pass-pipeline=builtin.module($job)" "$f")
      margs=(--mlir-disable-threading --allow-unregistered-dialect --mlir-print-op-generic "--pass-pipeline=builtin.module($job)" "$f")
    fi
    if [ -n "$BASE" ]; then
      read -r bt bm < <(measure "$BASE" "${targs[@]}")
    fi
    read -r tt tm < <(measure "$TILUS" "${targs[@]}")
    read -r mt mm < <(measure "$MLIR_OPT" "${margs[@]}")
    if [ -n "$BASE" ]; then
      awk -v n="$n" -v j="$job" -v bt="$bt" -v tt="$tt" -v mt="$mt" -v bm="$bm" -v tm="$tm" -v mm="$mm" \
        'BEGIN { printf "| %d | %s | %.2f | %.2f | %+.0f%% | %.2f | %.2fx | %.0f | %.0f | %.0f |\n", n, j, bt, tt, (bt > 0 ? 100 * (tt - bt) / bt : 0), mt, (tt > 0 ? mt / tt : 0), bm / 1024, tm / 1024, mm / 1024 }'
      continue
    fi
    awk -v n="$n" -v j="$job" -v tt="$tt" -v mt="$mt" -v tm="$tm" -v mm="$mm" \
      'BEGIN { printf "| %d | %s | %.2f | %.2f | %.2fx | %.0f | %.0f |\n", n, j, tt, mt, (tt > 0 ? mt / tt : 0), tm / 1024, mm / 1024 }'
  done
done
