// Hopper matmul v0: TMA loads, tilus.dot compute (spec §9, Hopper v0 "MatmulTMA").
//
//   C[M, N] = A[M, K] . B[N, K]^T      f16 in, f32 accumulate, f16 out; A and B K-major.
//
// 4 warps, a 2-D grid of (M ceildiv 128, N ceildiv 128) blocks, bm = bn = 128, bk = 64.
// One stage, one mbarrier (count 1) and a scalar phase carried by the K loop. Per K step one
// thread (`threadgroup.single_thread`):
//   * `mbarrier.arrive_expect_tx` announces the bytes of both boxes (2 x 128 x 64 x 2 B =
//     32768; TMA never raises the count itself, spec §5.1 / §11.3) and arrives once;
//   * issues the two `tma.global_to_shared` copies, which complete_tx on the barrier;
//   * waits for the phase.
// Then the whole block synchronizes, loads both tiles into registers and runs `tilus.dot`
// (wgmma on sm_90a, mma.sync on sm_80), synchronizes again before the next copy overwrites
// the tiles, and flips the phase.
// The tiles are 128B-swizzled: a 64-wide f16 row is exactly one 128-byte swizzle span, the
// layout TMA writes and tensor cores read (docs/guide/layouts.md). B is stored [N, K] and viewed
// as [K, N] with `tilus.permute_shared` (a free transpose).
//
// Check: tilus-opt examples/hopper_matmul_v0_tma.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter and compare C with the naive @matmul_ref at the end of the file:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok
// Eight K steps: the elected thread waits on every phase of the one barrier in turn (a run that
// once tripped the interpreter's missed-phase check when units merged).
// RUN: tilus-run %s --arg k=512 | FileCheck %s --check-prefix=INTERP

// CHECK-LABEL: tilus.kernel @hopper_matmul_v0
// CHECK-SAME:    warps(4)
// CHECK:         %[[BAR:.*]] = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
// CHECK:         scf.for
// CHECK-NEXT:      threadgroup.single_thread {
// CHECK-NEXT:        mbarrier.arrive_expect_tx %[[BAR]][%{{.*}} : i32], %{{.*}} : !mbarrier.barriers<1>
// CHECK-NEXT:        tma.global_to_shared {{.*}} : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
// CHECK-NEXT:        tma.global_to_shared {{.*}} : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
// CHECK-NEXT:        mbarrier.wait %[[BAR]][%{{.*}} : i32], phase(%{{.*}}) : !mbarrier.barriers<1>
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.sync
// CHECK:           tilus.dot
// CHECK-NEXT:      threadgroup.sync
// CHECK:         tilus.cast
// CHECK-NEXT:    tilus.store_global
tilus.kernel @hopper_matmul_v0(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 128)>)
    attributes {tilus.args = {m = 256 : i32, n = 128 : i32, k = 128 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %tx_bytes = arith.constant 32768 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %offset_m = arith.muli %bx, %c128 : i32
  %offset_n = arith.muli %by, %c128 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32>
  %phase0 = mbarrier.consumer_initial_phase
  %res:2 = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %acc0, %phase = %phase0) -> (!tilus.reg<128x128xf32>, i32) : i32 {
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx_bytes : !mbarrier.barriers<1>
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
    }
    // The elected thread saw the bytes land; the block-wide sync publishes that to all.
    threadgroup.sync
    %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
    %ra = tilus.load_shared %sa : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.reg<128x64xf16>
    %rb = tilus.load_shared %sbt : !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B> -> !tilus.reg<64x128xf16>
    %acc2 = tilus.dot %ra, %rb, %acc : (!tilus.reg<128x64xf16>, !tilus.reg<64x128xf16>, !tilus.reg<128x128xf32>) -> !tilus.reg<128x128xf32>
    // Everyone has read the tiles before the next step's TMA overwrites them.
    threadgroup.sync
    %next = arith.xori %phase, %c1 : i32
    scf.yield %acc2, %next : !tilus.reg<128x128xf32>, i32
  }
  %out = tilus.cast %res#0 : !tilus.reg<128x128xf32> to !tilus.reg<128x128xf16>
  tilus.store_global %out, %gc[%offset_m, %offset_n] : !tilus.reg<128x128xf16>, !tilus.global<?x?xf16>
  tilus.free_shared %sa : !tilus.shared<128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<128x64xf16, swizzle = 128B>
}

// A naive reference for `tilus-run` (its `tilus.reference`): plain global loads, with B [N, K]
// read through a transposed view [K, N] of strides [1, K], and `tilus.dot`; no shared memory,
// TMA, barriers or MMA protocol. `tilus-run` runs it on copies of the same inputs and compares C.
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
