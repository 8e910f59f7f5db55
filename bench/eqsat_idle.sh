#!/usr/bin/env bash
# Issue 14's throughput on an idle core: the eqsat pass on bench/eqsat_blocks.py's blocks
# (folding and --loads, 1k/10k/100k ops), and egg alone (bench/egg_baseline: the same kind of
# block as a RecExpr of SymbolLang, eight plain algebraic rules, no analysis, egg's Runner at
# the pass's limits of 8 iterations and 12 e-nodes an op) on the same core, so the pass's
# e-nodes per second can be read against what egg itself reaches there.
#
#   here:   cargo build --release -p tilus-opt
#           CARGO_TARGET_DIR=target/egg-baseline cargo build --release --manifest-path bench/egg_baseline/Cargo.toml
#   device: run(command="bash bench/eqsat_idle.sh",
#               carry=["target/release/tilus-opt", "target/egg-baseline/release/egg-baseline"])
#
# Each figure is the fastest of REPS (default 7) runs pinned to the last core (taskset).
# Table: $OUT/eqsat_idle.txt.
set -uo pipefail
out=${OUT:-/tmp/tilus-eqsat}
mkdir -p "$out"
REPS=${REPS:-7}
opt=target/release/tilus-opt
egg=target/egg-baseline/release/egg-baseline
pin=(taskset -c $(( $(nproc) - 1 )))
command -v taskset >/dev/null || pin=()
t=$out/eqsat_idle.txt
{
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%-10s %8s %9s %10s %12s\n' block ops e-nodes "pass s" "M e-nodes/s"
} >"$t"
for n in 1000 10000 100000; do
  for kind in folding loads; do
    f=/tmp/eqsat_${kind}_$n.mlir
    if [ $kind = loads ]; then python3 bench/eqsat_blocks.py $n --loads >"$f"; else python3 bench/eqsat_blocks.py $n >"$f"; fi
    best=
    for _ in $(seq "$REPS"); do
      o=$("${pin[@]}" $opt "$f" --pass-pipeline='builtin.module(eqsat)' -o /dev/null --timing --pass-statistics 2>&1)
      s=$(echo "$o" | sed -nE 's/^ *([0-9.]+) \( *[0-9.]+%\) +Eqsat$/\1/p')
      nodes=$(echo "$o" | sed -nE 's/^ *\(S\) +([0-9]+) num-enodes.*/\1/p')
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $s < $best else 1)"; then best=$s; fi
    done
    rate=$(python3 -c "print(f'{$nodes / $best / 1e6:.2f}')")
    printf '%-10s %8s %9s %10s %12s\n' "$kind" "$n" "$nodes" "$best" "$rate" >>"$t"
  done
  best=
  for _ in $(seq "$REPS"); do
    o=$("${pin[@]}" $egg $n)
    r=$(echo "$o" | sed -nE 's/.*: ([0-9.]+) M e-nodes\/s \(whole\).*/\1/p')
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $r > $best else 1)"; then best=$r; line=$o; fi
  done
  echo "egg alone: $line" >>"$t"
done
cat "$t"
