// Hopper matmul v2: a multi-stage TMA ring feeding WGMMA (spec §9, Hopper v2 "MatmulWGMMAV2").
//
//   C[M, N] = A[M, K] . B[N, K]^T      f16 in, f32 accumulate, f16 out; bm = bn = 128, bk = 64.
//
// S = 3 stages: shared buffers sa, sb : [S, 128, 64] (a stage is `tilus.slice_shared` of the
// leading dim; stage s starts at s * 128 * 64 elements, a multiple of the 128B swizzle's
// 1024-byte period) and S mbarriers of count 1, one per stage. Still no warp specialisation:
//   * prologue: one thread fills stages 0 .. min(iters, S) - 1 (expect-tx + two TMA copies each);
//   * iteration i: every thread waits on stage i % S, the block syncs, the warpgroup runs
//     fence / mma / commit / wait_group 0, the block syncs (the stage has been read), and one
//     thread refills the same stage with tile i + S if there is one;
//   * stage and phase advance in the loop's iter_args: stage = (stage + 1) % S, and the
//     phase flips when the stage wraps to 0.
// Tilus keeps a per-stage phase tensor; because stages are consumed strictly in ring order,
// every stage's phase equals the parity of the current round, so the (stage, phase) pair
// carried here is the same information (spec §4.3). While stage i computes, the copies of
// tiles i + 1 .. i + S - 1 are in flight: that overlap is what the ring buys over v1.
//
// Check: tilus-opt examples/hopper_matmul_v2_pipeline.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter and compare C with the naive @matmul_ref at the end of the file:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 1 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_v2
// CHECK:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>
// CHECK:         %[[BARS:.*]] = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
// CHECK:         threadgroup.single_thread {
// CHECK-NEXT:      scf.for
// CHECK:             mbarrier.arrive_expect_tx %[[BARS]]
// CHECK:         %{{.*}}:3 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[STAGE:.*]] = %{{.*}}, %[[PHASE:.*]] = %{{.*}}) -> (!tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
// CHECK-NEXT:      mbarrier.wait %[[BARS]][%[[STAGE]] : i32], phase(%[[PHASE]]) : !mbarrier.barriers<3>
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:      tilus.slice_shared %[[SA]][%[[STAGE]]] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
// CHECK:           wgmma.fence
// CHECK-NEXT:      wgmma.mma
// CHECK-NEXT:      wgmma.commit_group
// CHECK-NEXT:      wgmma.wait_group 0
// CHECK-NEXT:      threadgroup.sync
// CHECK:           threadgroup.single_thread {
// CHECK-NEXT:        scf.if
// CHECK:               mbarrier.arrive_expect_tx %[[BARS]][%[[STAGE]] : i32]
tilus.kernel @hopper_matmul_v2(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 128)>)
    attributes {tilus.args = {m = 128 : i32, n = 128 : i32, k = 256 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %tx_bytes = arith.constant 32768 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %offset_m = arith.muli %bx, %c128 : i32
  %offset_n = arith.muli %by, %c128 : i32
  %iters = arith.ceildivsi %k, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>
  %bars = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>

  // Prologue: fill the first min(iters, S) stages.
  %npre = arith.minsi %iters, %cS : i32
  threadgroup.single_thread {
    scf.for %s = %c0 to %npre step %c1 : i32 {
      %kk = arith.muli %s, %c64 : i32
      %sa_s = tilus.slice_shared %sa[%s] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
      %sb_s = tilus.slice_shared %sb[%s] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
      mbarrier.arrive_expect_tx %bars[%s : i32], %tx_bytes : !mbarrier.barriers<3>
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa_s, %bars[%s : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_s, %bars[%s : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
    }
  }

  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  %phase0 = mbarrier.consumer_initial_phase
  %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %phase0) -> (!tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
    // Stage i % S holds tile i once this phase completes.
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
    threadgroup.sync
    %sa_s = tilus.slice_shared %sa[%stage] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
    %sb_s = tilus.slice_shared %sb[%stage] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
    %sbt_s = tilus.permute_shared %sb_s [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
    wgmma.fence
    %acc2 = wgmma.mma %sa_s, %sbt_s, %acc : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
    wgmma.commit_group
    wgmma.wait_group 0
    // Every warp is done with this stage before it is refilled.
    threadgroup.sync
    // Refill the stage with tile i + S, if any.
    %j = arith.addi %i, %cS : i32
    %more = arith.cmpi slt, %j, %iters : i32
    threadgroup.single_thread {
      scf.if %more {
        %kk = arith.muli %j, %c64 : i32
        mbarrier.arrive_expect_tx %bars[%stage : i32], %tx_bytes : !mbarrier.barriers<3>
        tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa_s, %bars[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
        tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_s, %bars[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
      }
    }
    // Advance the ring: stage = (stage + 1) % S; flip the phase on wrap-around.
    %s1 = arith.addi %stage, %c1 : i32
    %wrap = arith.cmpi eq, %s1, %cS : i32
    %ns = arith.select %wrap, %c0, %s1 : i32
    %flip = arith.xori %phase, %c1 : i32
    %np = arith.select %wrap, %flip, %phase : i32
    scf.yield %acc2, %ns, %np : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32
  }
  %out = tilus.cast %res#0 : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<128x128xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  tilus.store_global %out, %gc[%offset_m, %offset_n] : !tilus.reg<128x128xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
  tilus.free_shared %sa : !tilus.shared<3x128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<3x128x64xf16, swizzle = 128B>
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
