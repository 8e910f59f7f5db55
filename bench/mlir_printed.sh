#!/usr/bin/env bash
# Compiler speed on IR as mlir-opt prints it: tilus-opt beside mlir-opt (single-threaded).
#
# bench/gen_mlir_ir.py writes custom-form IR (arith ops with overflow flags, fast-math flags and
# predicates, scf.for/scf.if, dialect attributes with nested bodies and types; 0% or 30%
# unregistered ops); `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic` (with
# `--mlir-print-debuginfo` for the "locs" rows) prints it, and both tools are timed on what it
# printed:
#
# * `print`: parse + verify + print in generic form (with locations for the "locs" rows);
# * `canonicalize,cse`: the same with that pipeline.
#
# Wall time is the median of REPS runs, memory the peak RSS; "B/op" is the peak RSS above an
# empty module's, per op. Then, for CG_SIZE ops, `valgrind --tool=callgrind` counts the
# instructions of `print` for both tools, per op after subtracting an empty module's run
# (exact, unlike wall time on a shared machine). Prints Markdown tables; docs/perf.md records a
# run.
#
# usage: bench/mlir_printed.sh [SIZES...]   (default: 100000 1000000; REPS=3, CG_SIZE=10000,
#                                            CG_SIZE=0 skips callgrind; TILUS=path times another
#                                            tilus-opt build, e.g. a base commit's)
set -euo pipefail
cd "$(dirname "$0")/.."
MLIR_OPT=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
REPS=${REPS:-3}
CG_SIZE=${CG_SIZE:-10000}
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(100000 1000000)
cargo build --release -q -p tilus-opt
TILUS=${TILUS:-target/release/tilus-opt}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The rows: "UNREG_PERCENT LOCS" (LOCS 1: printed and read back with locations).
VARIANTS=("0 0" "30 0" "30 1")

# Writes the mlir-opt-printed file for N ops and a variant; prints its path.
input() {
  local n=$1 u=$2 l=$3 f="$WORK/in_${1}_${2}_${3}.mlir"
  if [ ! -f "$f" ]; then
    python3 bench/gen_mlir_ir.py "$n" "$u" "$WORK/custom_${n}_${u}.mlir"
    local extra=()
    [ "$l" = 1 ] && extra=(--mlir-print-debuginfo)
    "$MLIR_OPT" --allow-unregistered-dialect --mlir-print-op-generic "${extra[@]}" \
      "$WORK/custom_${n}_${u}.mlir" -o "$f"
  fi
  echo "$f"
}

# The ops of a generic-form file: one quoted op name followed by `(` each.
count_ops() { grep -o '"[A-Za-z_][A-Za-z0-9_$.]*"(' "$1" | wc -l; }

# Arguments of each tool for a job and a variant, one a line.
tilus_args() {
  local job=$1 l=$2
  printf '%s\n' --allow-unregistered-dialect --print-op-generic
  [ "$l" = 1 ] && echo --print-debuginfo
  [ "$job" != print ] && echo "--pass-pipeline=builtin.module($job)"
  return 0
}
mlir_args() {
  local job=$1 l=$2
  printf '%s\n' --mlir-disable-threading --allow-unregistered-dialect --mlir-print-op-generic
  [ "$l" = 1 ] && echo --mlir-print-debuginfo
  [ "$job" != print ] && echo "--pass-pipeline=builtin.module($job)"
  return 0
}

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

EMPTY="$WORK/empty.mlir"
echo 'module {
}' > "$EMPTY"
read -r _ t_empty_rss < <(REPS=1 measure "$TILUS" --print-op-generic "$EMPTY")
read -r _ m_empty_rss < <(REPS=1 measure "$MLIR_OPT" --mlir-disable-threading --mlir-print-op-generic "$EMPTY")

echo "| ops | unregistered | locs | job | tilus-opt s | mlir-opt s | speed-up | tilus-opt MiB | mlir-opt MiB | tilus-opt B/op | mlir-opt B/op |"
echo "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|"
for n in "${SIZES[@]}"; do
  for v in "${VARIANTS[@]}"; do
    read -r u l <<< "$v"
    f=$(input "$n" "$u" "$l")
    ops=$(count_ops "$f")
    for job in print "canonicalize,cse"; do
      mapfile -t ta < <(tilus_args "$job" "$l")
      mapfile -t ma < <(mlir_args "$job" "$l")
      read -r tt tm < <(measure "$TILUS" "${ta[@]}" "$f")
      read -r mt mm < <(measure "$MLIR_OPT" "${ma[@]}" "$f")
      awk -v n="$ops" -v u="$u%" -v l="$([ "$l" = 1 ] && echo yes || echo no)" -v j="$job" \
        -v tt="$tt" -v mt="$mt" -v tm="$tm" -v mm="$mm" -v te="$t_empty_rss" -v me="$m_empty_rss" \
        'BEGIN { printf "| %d | %s | %s | %s | %.2f | %.2f | %.2fx | %.0f | %.0f | %.0f | %.0f |\n",
                 n, u, l, j, tt, mt, (tt > 0 ? mt / tt : 0), tm / 1024, mm / 1024,
                 (tm - te) * 1024 / n, (mm - me) * 1024 / n }'
    done
  done
done

[ "$CG_SIZE" = 0 ] && exit 0
command -v valgrind > /dev/null || { echo "valgrind not found: no instruction counts"; exit 0; }

# Instructions of one run under callgrind.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
    awk '/Collected/ { gsub(",", "", $NF); print $NF }'
}

echo
echo "Instructions per op of \`print\` (callgrind, $CG_SIZE-op inputs, an empty module's run subtracted):"
echo
echo "| ops | unregistered | locs | tilus-opt instr/op | mlir-opt instr/op | ratio |"
echo "|---:|---:|---|---:|---:|---:|"
t0=$(instructions "$TILUS" --print-op-generic "$EMPTY")
m0=$(instructions "$MLIR_OPT" --mlir-disable-threading --mlir-print-op-generic "$EMPTY")
for v in "${VARIANTS[@]}"; do
  read -r u l <<< "$v"
  f=$(input "$CG_SIZE" "$u" "$l")
  ops=$(count_ops "$f")
  mapfile -t ta < <(tilus_args print "$l")
  mapfile -t ma < <(mlir_args print "$l")
  ti=$(instructions "$TILUS" "${ta[@]}" "$f")
  mi=$(instructions "$MLIR_OPT" "${ma[@]}" "$f")
  awk -v n="$ops" -v u="$u%" -v l="$([ "$l" = 1 ] && echo yes || echo no)" \
    -v ti="$ti" -v mi="$mi" -v t0="$t0" -v m0="$m0" \
    'BEGIN { t = (ti - t0) / n; m = (mi - m0) / n;
             printf "| %d | %s | %s | %.0f | %.0f | %.2fx |\n", n, u, l, t, m, m / t }'
done
