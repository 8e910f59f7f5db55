#!/usr/bin/env bash
# Integer and address instructions of each example kernel's PTX, with and without eqsat
# (docs/perf.md). Each kernel is lowered alone, as tilus-run --backend cuda lowers it.
# Usage: bench/eqsat_ptx.sh [path/to/tilus-run]   (MOVS=1 also totals the constant and
# register-to-register moves among the counted instructions, both ways)
set -euo pipefail
RUN=${1:-target/release/tilus-run}
printf '| kernel | eqsat=false | eqsat | change |\n|---|---:|---:|---:|\n'
total_off=0; total_on=0; movs_off=(0 0); movs_on=(0 0)
for f in examples/*.mlir; do
  for k in $(grep -o '^ *tilus.kernel @[A-Za-z0-9_]*' "$f" | sed 's/.*@//' | awk '!seen[$0]++'); do
    off=$("$RUN" "$f" --kernel "$k" --dump-ptx \
      --lowering='builtin.module(tilus-to-ptx{eqsat=false})' | python3 bench/ptx_int_count.py /dev/stdin)
    on=$("$RUN" "$f" --kernel "$k" --dump-ptx | python3 bench/ptx_int_count.py /dev/stdin)
    total_off=$((total_off + off)); total_on=$((total_on + on))
    if [ "${MOVS:-0}" = 1 ]; then
      read -r c r < <("$RUN" "$f" --kernel "$k" --dump-ptx \
        --lowering='builtin.module(tilus-to-ptx{eqsat=false})' | python3 bench/ptx_int_count.py --movs /dev/stdin)
      movs_off=($((movs_off[0] + c)) $((movs_off[1] + r)))
      read -r c r < <("$RUN" "$f" --kernel "$k" --dump-ptx | python3 bench/ptx_int_count.py --movs /dev/stdin)
      movs_on=($((movs_on[0] + c)) $((movs_on[1] + r)))
    fi
    printf '| %s @%s | %d | %d | %+.1f%% |\n' "$(basename "$f" .mlir)" "$k" "$off" "$on" \
      "$(python3 -c "print(100*($on-$off)/$off)")"
  done
done
printf '| **all** | **%d** | **%d** | **%+.1f%%** |\n' "$total_off" "$total_on" \
  "$(python3 -c "print(100*($total_on-$total_off)/$total_off)")"
if [ "${MOVS:-0}" = 1 ]; then
  printf '\nmoves: eqsat=false %d constant, %d register; eqsat %d constant, %d register\n' \
    "${movs_off[0]}" "${movs_off[1]}" "${movs_on[0]}" "${movs_on[1]}"
fi
