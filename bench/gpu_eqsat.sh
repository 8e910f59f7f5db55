#!/usr/bin/env bash
# eqsat on the GPU: every kernel of every example lowered with the default pipeline (eqsat on)
# and with `tilus-to-ptx{eqsat=false}`, in one run on one card: each checked against the CPU
# interpreter (--compare-backends), then timed (--bench: CUDA events, median of 30 after 5
# warm-ups) at the example's own sizes; the outputs' `output NAME: ... hash=` lines of the two
# runs (same seeded random inputs) must be equal.
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_eqsat.sh", carry=["target/release/tilus-run"])
#
# Prints a Markdown table (also $OUT/eqsat.md); logs in $OUT/eqsat.log. Kernels that need
# sm_100a are skipped on Hopper; reference kernels run as part of the kernels that name them.
set -uo pipefail
bin=${1:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}
tmp=/tmp/tilus-eqsat
mkdir -p "$out" "$tmp"
log=$out/eqsat.log
table=$out/eqsat.md
: >"$log"
off='builtin.module(tilus-to-ptx{eqsat=false})'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$log"
{
  echo "| example | kernel | check (eqsat on) | check (eqsat off) | median µs on | median µs off | on/off | outputs equal |"
  echo "|---|---|---|---|---:|---:|---:|---|"
} >"$table"
median() { grep -oE 'median [0-9.]+ (ms|us|µs)' | head -1 | awk '{v=$2; if ($3=="ms") v*=1000; print v}'; }
for f in examples/*.mlir; do
  ex=$(basename "$f" .mlir)
  [[ $ex == blackwell* ]] && continue
  for k in $(grep -oE '^tilus\.kernel @[A-Za-z0-9_]+' "$f" | sed 's/tilus.kernel @//'); do
    grep -q "tilus.reference = \"$k\"" "$f" && continue
    row="| $ex | @$k |"
    declare -A outs=()
    for mode in on off; do
      lf=()
      [ $mode = off ] && lf=(--lowering "$off")
      o=$("$bin" "$f" --kernel "$k" --backend cuda --compare-backends --timeout 60 "${lf[@]}" 2>&1)
      rc=$?
      { echo "== $f @$k eqsat=$mode compare (rc=$rc)"; echo "$o"; } >>"$log"
      outs[$mode]=$(echo "$o" | grep -E '^output ' | sort)
      c=$(echo "$o" | grep -cE '^(compare|check) .*ok')
      bad=$(echo "$o" | grep -cE '^(compare|check) .*(FAIL|mismatch)')
      if [ $rc -eq 0 ] && [ "$bad" -eq 0 ]; then row="$row ok ($c) |"; else row="$row **rc=$rc** |"; fi
    done
    declare -A t=()
    for mode in on off; do
      lf=()
      [ $mode = off ] && lf=(--lowering "$off")
      o=$("$bin" "$f" --kernel "$k" --backend cuda --no-reference --timeout 60 "${lf[@]}" \
          --bench --bench-reps 30 --bench-warmup 5 2>&1)
      { echo "== $f @$k eqsat=$mode bench"; echo "$o"; } >>"$log"
      t[$mode]=$(echo "$o" | median)
    done
    ratio=$(awk -v a="${t[on]:-0}" -v b="${t[off]:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
    if [ -z "${outs[on]}" ]; then same="(no output lines)"
    elif [ "${outs[on]}" = "${outs[off]}" ]; then same=yes
    else same="**differ**"; fi
    echo "$row ${t[on]:--} | ${t[off]:--} | $ratio | $same |" | tee -a "$table"
  done
done
echo
cat "$table"
