// pipeline{stages=N} pipelines TMA loops only. A loop that stages its tiles in shared memory
// with plain loads (tilus.load_global into registers, tilus.store_shared into a buffer
// allocated outside the loop) is rejected with a diagnostic at the store rather than left
// alone: those loads block their threads until the data is in registers, so a ring for them
// would have to prefetch tile i + N - 1 into registers before computing tile i, which the pass
// does not build. The kernel itself is correct (it matches the reference); rewriting its loads
// as TMA copies under an mbarrier (examples/hopper_matmul_v0_tma.mlir) makes it pipelinable.
//
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// INTERP-LABEL: kernel: @plain_load_matmul
// INTERP: check c vs reference @matmul_ref: ok
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(pipeline{stages=3})' -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s
// CHECK: pipeline-plain-loads.mlir:[[@LINE+22]]:5: error: pipeline: this loop brings its tiles to shared memory with plain loads (tilus.load_global, then tilus.store_shared); pipeline{stages=N} pipelines TMA loops only, whose copies complete asynchronously on an mbarrier, and does not turn synchronous loads into a register prefetch
// CHECK: pipeline-plain-loads.mlir:[[@LINE+19]]:10: note: the loop

tilus.kernel @plain_load_matmul(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>)
    attributes {tilus.args = {m = 64 : i32, n = 64 : i32, k = 96 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c64 : i32
  %on = arith.muli %by, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gbt = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<64x32xf16>
  %sb = tilus.shared_tensor : !tilus.shared<32x64xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%acc_i = %acc0) -> (!tilus.reg<64x64xf32>) : i32 {
    %ra = tilus.load_global %ga[%om, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
    tilus.store_shared %ra, %sa : !tilus.reg<64x32xf16>, !tilus.shared<64x32xf16>
    %rb = tilus.load_global %gbt[%kk, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x64xf16>
    tilus.store_shared %rb, %sb : !tilus.reg<32x64xf16>, !tilus.shared<32x64xf16>
    threadgroup.sync
    %xa = tilus.load_shared %sa : !tilus.shared<64x32xf16> -> !tilus.reg<64x32xf16>
    %xb = tilus.load_shared %sb : !tilus.shared<32x64xf16> -> !tilus.reg<32x64xf16>
    %d = tilus.dot %xa, %xb, %acc_i : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    threadgroup.sync
    scf.yield %d : !tilus.reg<64x64xf32>
  }
  %out = tilus.cast %acc : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
  tilus.free_shared %sa : !tilus.shared<64x32xf16>
  tilus.free_shared %sb : !tilus.shared<32x64xf16>
}

tilus.kernel @matmul_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c64 : i32
  %on = arith.muli %by, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gbt = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%acc_i = %acc0) -> (!tilus.reg<64x64xf32>) : i32 {
    %ra = tilus.load_global %ga[%om, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
    %rb = tilus.load_global %gbt[%kk, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x64xf16>
    %d = tilus.dot %ra, %rb, %acc_i : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    scf.yield %d : !tilus.reg<64x64xf32>
  }
  %out = tilus.cast %acc : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
}
