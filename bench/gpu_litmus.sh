#!/usr/bin/env bash
# The known-verdict table on a GPU: every kernel of test/litmus/ run on the CPU interpreter (the
# deterministic schedule and random seeds 1-4) and on the GPU (tilus-run --backend cuda, then
# compute-sanitizer memcheck and racecheck), each classified as completes / deadlock /
# over-arrival / race / oob / wrong values. One call on the GPU machine (no Rust there):
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="bash bench/gpu_litmus.sh", carry=["target/release/tilus-run"])
#
# A hang is a deadlock: the CUDA backend's watchdog (--timeout) reports it, and `timeout` backs
# it up. OOB is what memcheck reports, a race what racecheck reports (it sees shared-memory
# hazards between threads, not the async proxy: a TMA or wgmma race usually shows as wrong
# values, if at all). Kernels that hang skip the sanitizers. Prints a Markdown table (also in
# $OUT/litmus.md) and the full logs in $OUT/litmus.log.
set -uo pipefail
bin=${1:-target/release/tilus-run}
# The GPU column is the hardware's verdict, so the kernels are lowered without the static
# verify-barriers step of tilus-to-ptx (which rejects several of them before they run; its own
# verdicts are in test/transforms/verify-barriers-litmus.mlir).
low='builtin.module(lower-async-to-ptx,plan-shared-memory,lower-tiles,lower-threadgroups,lower-tilus-kernel,canonicalize,cse,eqsat,canonicalize,cse,convert-scf-to-cf,convert-arith-to-ptx)' 
out=${OUT:-/tmp/tilus-gpu}
mkdir -p "$out"
log=$out/litmus.log
table=$out/litmus.md
: >"$log"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
echo "GPU: $gpu; compute-sanitizer: ${cs:-none}" | tee -a "$log"
{
  echo "| kernel | expected | interpreter (det, seeds 1-4) | GPU run | memcheck | racecheck | GPU verdict |"
  echo "|---|---|---|---|---|---|---|"
} >"$table"

# The verdict of a tilus-run (rc, output), as tilus-run/tests/litmus.rs classifies it.
classify() {
  if [ "$1" -eq 0 ]; then echo completes; return; fi
  if [ "$1" -eq 124 ] || echo "$2" | grep -q 'watchdog: kernel'; then echo deadlock; return; fi
  if echo "$2" | grep -q 'MISMATCH'; then echo "wrong values"; return; fi
  local err
  err=$(echo "$2" | grep -m1 ': error: ' || echo "$2" | grep -m1 -v '^\s*$')
  case "$err" in
    *deadlock*) echo deadlock ;;
    *"arrivals beyond the expected count"*) echo over-arrival ;;
    *unfinished* | *"before the wgmma.wait_group"* | *"before tcgen05.wait_ld"*) echo race ;;
    *out-of-bounds*) echo oob ;;
    *) echo "error: $(echo "${err#*error: }" | cut -c1-80)" ;;
  esac
}

# A sanitizer's word: clean, or what it found.
sanitizer() { # rc output tool
  if [ "$1" -eq 0 ]; then echo clean; return; fi
  if [ "$1" -eq 124 ]; then echo "hang"; return; fi
  local n
  n=$(echo "$2" | grep -m1 -oE '(ERROR SUMMARY|RACECHECK SUMMARY): [0-9]+ [a-z]+' | sed -E 's/.*: //')
  echo "**${n:-exit $1}**"
}

for f in test/litmus/*.mlir; do
  name=$(basename "$f" .mlir)
  want=$(sed -nE 's#^// LITMUS: ##p' "$f")
  exp=()
  while read -r n file; do
    [ -n "$n" ] && exp+=(--expect "$n=test/litmus/$file")
  done < <(sed -nE 's#^// EXPECT: ([A-Za-z0-9_]+) = (\S+)#\1 \2#p' "$f")

  # Interpreter: one word when every schedule agrees.
  verdicts=()
  for s in "--schedule deterministic" "--schedule random --seed 1" "--schedule random --seed 2" \
    "--schedule random --seed 3" "--schedule random --seed 4"; do
    # shellcheck disable=SC2086
    o=$(timeout 120 "$bin" "$f" --backend interp --diagnostic-format mlir $s "${exp[@]}" 2>&1)
    rc=$?
    { echo "== $name interp $s (rc=$rc)"; echo "$o" | tail -20; } >>"$log"
    v=$(classify $rc "$o")
    echo "$o" | grep -q ': warning: ' && v="$v (warning)"
    verdicts+=("$v")
  done
  interp=$(printf '%s\n' "${verdicts[@]}" | sort -u | paste -sd '/' -)

  # GPU.
  o=$(timeout 60 "$bin" "$f" --backend cuda --lowering "$low" --timeout 10 --diagnostic-format mlir "${exp[@]}" 2>&1)
  rc=$?
  { echo "== $name cuda (rc=$rc)"; echo "$o" | tail -40; } >>"$log"
  run=$(classify $rc "$o")
  mem="" race=""
  if [ "$run" != deadlock ] && [ -n "$cs" ]; then
    o=$(timeout 300 "$cs" --tool memcheck --error-exitcode 1 "$bin" "$f" --backend cuda --lowering "$low" --timeout 60 2>&1)
    rc=$?
    { echo "== $name memcheck (rc=$rc)"; echo "$o" | tail -40; } >>"$log"
    mem=$(sanitizer $rc "$o")
    o=$(timeout 300 "$cs" --tool racecheck --racecheck-report hazard --error-exitcode 1 "$bin" "$f" --backend cuda --lowering "$low" --timeout 60 2>&1)
    rc=$?
    { echo "== $name racecheck (rc=$rc)"; echo "$o" | tail -40; } >>"$log"
    race=$(sanitizer $rc "$o")
  fi
  gpu_verdict=$run
  if [ "$run" != deadlock ]; then
    [[ $mem == \*\** ]] && gpu_verdict=oob
    [[ $race == \*\** ]] && gpu_verdict=race
  fi
  echo "| $name | $want | $interp | $run | $mem | $race | $gpu_verdict |" | tee -a "$table"
done
echo
cat "$table"
