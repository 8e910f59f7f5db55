#!/usr/bin/env bash
# Memory-traffic and instruction counts (ncu) of a matmul example at 4096^3, or of cuBLAS's
# kernel in the same process (docs/perf.md, issue 17 third part):
#   device: run(command="bash bench/ncu_counts.sh examples/hopper_matmul_v6_tma_epilogue.mlir", carry=["target/release/tilus-run"])
#   KERNEL=regex:nvjet bash bench/ncu_counts.sh FILE   # cuBLAS's kernel instead of ours
set -u
source "$(dirname "$0")/cublas_path.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
s=${S:-4096}
LOW='builtin.module(lower-async-to-ptx,plan-shared-memory,lower-tiles,lower-threadgroups,lower-tilus-kernel,canonicalize,cse,eqsat,canonicalize,cse,convert-scf-to-cf,convert-arith-to-ptx)'
args="--backend cuda --no-reference --lowering $LOW --arg m=$s --arg n=$s --arg k=$s --arg num_sms=132 --bench --bench-reps 1 --bench-warmup 1 --flops $((2*s*s*s)) --compare cublas"
M=gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_local_ld.sum
for EX in "$@"; do
  # shellcheck disable=SC2086
  $NCU --metrics $M -k "${KERNEL:-regex:^(?!nvjet)}" -c 1 target/release/tilus-run "$EX" $args 2>&1 |
    grep -v "^==PROF==\|^bench\|^cublas\|^\s*-\+$\|Metric Name"
done
