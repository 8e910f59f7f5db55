#!/usr/bin/env bash
# Every kernel of the given files on the GPU, checked against the CPU interpreter
# (`tilus-run FILE --backend cuda --compare-backends`: each kernel that is not another's
# reference, at the file's own sizes, on the same seeded random inputs) and, where the kernel
# names a reference, against it. One line per file: exit status and the checks' verdicts.
#
#   here:   cargo build --release -p tilus-run
#   device: run(command="FILES='...' bash bench/gpu_compare.sh", carry=["target/release/tilus-run"])
#
# FILES defaults to the layout-less probes (test/run-cli) and every example; tcgen05 files
# (sm_100a) are skipped on Hopper. Table: $OUT/compare.txt, logs: $OUT/compare.log.
set -uo pipefail
bin=${1:-target/release/tilus-run}
out=${OUT:-/tmp/tilus-gpu}
mkdir -p "$out"
FILES=${FILES:-"test/run-cli/no-layouts.mlir test/run-cli/no-layouts-shuffle.mlir test/run-cli/int-tiles.mlir test/run-cli/i1-tiles.mlir test/run-cli/convert-i1.mlir test/run-cli/float-mod.mlir test/run-cli/dot-half-acc.mlir test/run-cli/f64-roots.mlir test/run-cli/f64-math.mlir test/run-cli/reduce-any-all.mlir test/run-cli/shuffle-64bit.mlir test/run-cli/slice-register.mlir test/run-cli/scratch-side-by-side.mlir test/run-cli/scratch-back-edge.mlir test/run-cli/scf-while.mlir test/run-cli/scf-switch.mlir test/run-cli/scratch-paths.mlir examples/*.mlir"}
t=$out/compare.txt
log=$out/compare.log
: >"$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$t"
for f in $FILES; do
  case $f in *blackwell*|*tcgen05*) echo "$f: skipped (sm_100a)" | tee -a "$t"; continue ;; esac
  o=$(timeout 600 "$bin" "$f" --backend cuda --compare-backends 2>&1)
  rc=$?
  { echo "== $f rc=$rc"; echo "$o"; } >>"$log"
  ok=$(echo "$o" | grep -cE ': ok')
  bad=$(echo "$o" | grep -cE 'MISMATCH|differ|mismatch|error')
  echo "$f: rc=$rc, $ok ok lines, $bad mismatch/error lines" | tee -a "$t"
done
