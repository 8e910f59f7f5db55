#!/usr/bin/env bash
# ncu metrics of a persistent Hopper matmul example (EX, size S) and of cuBLAS in the same process:
#   device: run(command="EX=examples/hopper_matmul_v5_cluster.mlir bash bench/ncu_matmul.sh", carry=["target/release/tilus-run"])
set -u
source "$(dirname "$0")/cublas_path.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
s=${S:-4096}
EX=${EX:-examples/hopper_matmul_v4_persistent.mlir}
LOW='builtin.module(lower-async-to-ptx,plan-shared-memory,lower-tiles,lower-threadgroups,lower-tilus-kernel,canonicalize,cse,eqsat,canonicalize,cse,convert-scf-to-cf,convert-arith-to-ptx)'
args="--backend cuda --no-reference --lowering $LOW --arg m=$s --arg n=$s --arg k=$s --arg num_sms=132 --bench --bench-reps 1 --bench-warmup 1 --flops $((2*s*s*s)) --compare cublas"
M=sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,launch__cluster_dim_x,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard,lts__t_sector_hit_rate.pct
$NCU --metrics $M --section WarpStateStats -k regex:hopper -c 1 target/release/tilus-run $EX $args 2>&1 | grep -v "^==PROF==\|^bench\|^cublas" | tail -25
$NCU --metrics $M -k regex:'^(?!hopper)' -c 1 target/release/tilus-run $EX $args 2>&1 | grep -v "^==PROF==\|^bench\|^cublas" | tail -25
