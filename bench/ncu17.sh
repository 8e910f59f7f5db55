#!/usr/bin/env bash
# Issue 17: ncu counters of the passes' matmul (or EX) and of cuBLAS in the same process, at
# S^3 (default 4096), with the clocks left free (--clock-control none: ncu's default locks
# them at base, which is not how either kernel is timed), to compare where each spends a tile:
# the tensor pipe, the shared-memory banks (wgmma operand reads, TMA writes, the epilogue),
# the clock, and our warps' stall reasons.
#   device: run(command="bash bench/ncu17.sh", carry=["target/release/tilus-run"])
set -u
source "$(dirname "$0")/cublas_path.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
s=${S:-4096}
EXS=${EXS:-examples/hopper_matmul_persistent_passes.mlir}
args="--backend cuda --no-reference --arg m=$s --arg n=$s --arg k=$s --arg num_sms=132 --bench --bench-reps 1 --bench-warmup 1 --flops $((2*s*s*s)) --compare cublas"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_bytes.sum,dram__bytes_read.sum,smsp__inst_executed.sum,launch__grid_size,launch__cluster_dim_x,launch__block_size
for EX in $EXS; do
  echo "### $EX"
  $NCU --clock-control none --metrics $M --section WarpStateStats -k regex:hopper -c 1 target/release/tilus-run $EX $args 2>&1 | grep -v "^==PROF==\|^bench\|^cublas" | grep -E "^\s+(gpu__|sm__|l1tex__|lts__|dram__|smsp__|launch__|Stall|Warp Cycles|Avg)|----|Section" | head -40
done
echo "### cuBLAS"
$NCU --clock-control none --metrics $M -k regex:'^(?!hopper)' -c 1 target/release/tilus-run $(echo $EXS | cut -d' ' -f1) $args 2>&1 | grep -v "^==PROF==\|^bench\|^cublas" | grep -E "^\s+(gpu__|sm__|l1tex__|lts__|dram__|smsp__|launch__)|nvjet|sm90" | head -30
