// warp-specialize on a kernel written without layouts. With consumer-warpgroups > 1 the pass
// splits the accumulator by the rows of its wgmma fragment layout, so it first lays out the
// kernel as infer-layouts would (before, it stopped with "the accumulator is not in the wgmma
// fragment layout"). examples/hopper_matmul_v1_persistent.mlir with every layout erased goes
// through issue 17's pipeline to the very kernel the written layouts give:
//
// RUN: sed -E 's/, layout = [^>]*>/>/g' %S/../../examples/hopper_matmul_v1_persistent.mlir > %t.in.mlir
// RUN: FileCheck %s --check-prefix=INPUT --input-file %t.in.mlir
// INPUT:     tilus.kernel @hopper_matmul_v1_persistent
// INPUT-NOT: layout =
// RUN: tilus-opt %t.in.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=0},tma-store-epilogue,canonicalize)' -o %t.out.mlir
// RUN: grep -v '^//' %S/../../examples/hopper_matmul_persistent_passes.mlir | diff - %t.out.mlir
//
// The kernels that only one consumer group runs are left without layouts (lower-tiles' own
// infer-layouts lays them out later), and the split result runs:
// RUN: tilus-opt %t.in.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{consumer-warpgroups=1})' | FileCheck %s --check-prefix=ONE
// ONE:     threadgroup.warp_group
// ONE-NOT: layout =
// RUN: tilus-run %t.out.mlir --arg num_sms=5 --arg k=64 | FileCheck %s
// CHECK: check c vs reference @matmul_ref: ok
