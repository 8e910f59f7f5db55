#!/usr/bin/env bash
# Integer and address instructions of each example kernel's PTX, with and without eqsat
# (docs/perf.md). Each kernel is lowered alone, as tilus-run --backend cuda lowers it.
# Usage: bench/eqsat_ptx.sh [path/to/tilus-run]
set -euo pipefail
RUN=${1:-target/release/tilus-run}
printf '| kernel | eqsat=false | eqsat | change |\n|---|---:|---:|---:|\n'
total_off=0; total_on=0
for f in examples/*.mlir; do
  for k in $(grep -o '^ *tilus.kernel @[A-Za-z0-9_]*' "$f" | sed 's/.*@//' | awk '!seen[$0]++'); do
    off=$("$RUN" "$f" --kernel "$k" --dump-ptx \
      --lowering='builtin.module(tilus-to-ptx{eqsat=false})' | python3 bench/ptx_int_count.py /dev/stdin)
    on=$("$RUN" "$f" --kernel "$k" --dump-ptx | python3 bench/ptx_int_count.py /dev/stdin)
    total_off=$((total_off + off)); total_on=$((total_on + on))
    printf '| %s @%s | %d | %d | %+.1f%% |\n' "$(basename "$f" .mlir)" "$k" "$off" "$on" \
      "$(python3 -c "print(100*($on-$off)/$off)")"
  done
done
printf '| **all** | **%d** | **%d** | **%+.1f%%** |\n' "$total_off" "$total_on" \
  "$(python3 -c "print(100*($total_on-$total_off)/$total_off)")"
