#!/usr/bin/env bash
# Every kernel of every example on the GPU: checked against the CPU interpreter
# (--compare-backends), then run under compute-sanitizer's memcheck, racecheck and synccheck with
# --error-exitcode 1. One call on the GPU machine (no Rust there):
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_sanitize.sh", carry=["target/release/tilus-run"])
#
# Kernels that need sm_100a (tcgen05) are listed as skipped on a Hopper GPU. Reference kernels
# run as part of checking the kernels that name them, and on their own too. Prints a Markdown
# table (also in $OUT/sanitize.md) and the full logs in $OUT/sanitize.log. FILES (paths, default
# examples/*.mlir) picks the files.
set -uo pipefail
bin=${1:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}
mkdir -p "$out"
log=$out/sanitize.log
table=$out/sanitize.md
: >"$log"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
echo "GPU: $gpu; compute-sanitizer: $cs" | tee -a "$log"
{
  echo "| example | kernel | GPU vs interpreter | memcheck | racecheck | synccheck |"
  echo "|---|---|---|---|---|---|"
} >"$table"

verdict() { # rc -> word
  if [ "$1" -eq 0 ]; then echo "clean"; else echo "**exit $1**"; fi
}

for f in ${FILES:-examples/*.mlir}; do
  for k in $(grep -oE '^[[:space:]]*tilus\.kernel @[A-Za-z0-9_]+' "$f" | sed 's/.*tilus.kernel @//'); do
    ex=$(basename "$f" .mlir)
    if [[ $ex == blackwell* && $k != *ref* ]]; then
      echo "| $ex | @$k | skipped (sm_100a) | | | |" >>"$table"
      continue
    fi
    # A kernel another kernel names as its tilus.reference runs (on the GPU, under the same
    # sanitizer) as part of that kernel's check, with that kernel's arguments.
    by=$(awk -v k="$k" '/^[ \t]*tilus\.kernel @/{name=$2; sub(/\(.*/,"",name)} index($0, "tilus.reference = \"" k "\"") && name!="" {print name; exit}' "$f")
    if [ -n "$by" ]; then
      echo "| $ex | @$k | reference of $by: checked in its row | | | |" >>"$table"
      continue
    fi
    o=$("$bin" "$f" --kernel "$k" --backend cuda --compare-backends --timeout 30 2>&1)
    rc=$?
    { echo "== $f @$k --compare-backends (rc=$rc)"; echo "$o"; } >>"$log"
    cmp=$(echo "$o" | grep -E '^(compare|check) ' | sed -E 's/ \(max abs.*//; s/^compare //; s/^check //' | tr '\n' ';' | sed 's/;$//')
    [ $rc -eq 0 ] || cmp="**exit $rc** $cmp"
    row="| $ex | @$k | ${cmp:-ok} |"
    for tool in memcheck racecheck synccheck; do
      o=$("$cs" --tool "$tool" --error-exitcode 1 "$bin" "$f" --kernel "$k" --backend cuda --timeout 120 2>&1)
      rc=$?
      { echo "== $f @$k $tool (rc=$rc)"; echo "$o" | tail -40; } >>"$log"
      row="$row $(verdict $rc) |"
    done
    echo "$row" | tee -a "$table"
  done
done
echo
cat "$table"
