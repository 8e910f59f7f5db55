// Hopper matmul v1: TMA loads and WGMMA in one warpgroup (spec §9, Hopper v1 "MatmulWGMMA").
//
//   C[M, N] = A[M, K] . B[N, K]^T      f16 in, f32 accumulate, f16 out; bm = bn = 128, bk = 64.
//
// The skeleton is v0's (examples/hopper_matmul_v0_tma.mlir): one stage, one barrier, a phase
// in the K loop's iter_args, one elected thread announcing the bytes, issuing both TMA copies
// and waiting. The compute becomes the warpgroup MMA protocol (spec §6.1), run by the 4 warps
// of the block, which are exactly one warpgroup (128 threads starting at thread 0; the
// verifier checks it):
//   wgmma.fence           order the accumulator's register accesses before the MMA
//   wgmma.mma             D = A . B + D from shared A [128, 64] and B [64, 128]: 4 k16 steps
//                         x 2 m64 rows of m64n128k16 instructions
//   wgmma.commit_group    close the group of MMAs just issued
//   wgmma.wait_group 0    wait for it: only now may the accumulator be read
// The accumulator is given in the wgmma fragment layout (docs/guide/layouts.md, "The wgmma
// accumulator"), wgmma_accumulator(128, 128, inst_n = 128):
//   local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)
// warp w owns rows 16w..16w+15 of each m64 block; lane L rows L/4 and L/4 + 8, columns
// 2(L%4) + {0, 1} of every 8-column chunk. The verifier compares it with the real fragment by
// mapping. Both tiles are K-major with the 128B swizzle; B [N, K] is viewed as [K, N].
//
// Check: tilus-opt examples/hopper_matmul_v1_wgmma.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter and compare C with the naive @matmul_ref at the end of the file:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_v1
// CHECK-SAME:    warps(4)
// CHECK:         %[[BAR:.*]] = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
// CHECK:         tilus.register_tensor init(%{{.*}} : f32) : !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
// CHECK:         scf.for
// CHECK-NEXT:      threadgroup.single_thread {
// CHECK-NEXT:        mbarrier.arrive_expect_tx %[[BAR]]
// CHECK-NEXT:        tma.global_to_shared
// CHECK-NEXT:        tma.global_to_shared
// CHECK-NEXT:        mbarrier.wait %[[BAR]]
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.sync
// CHECK:           wgmma.fence
// CHECK-NEXT:      %{{.*}} = wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
// CHECK-NEXT:      wgmma.commit_group
// CHECK-NEXT:      wgmma.wait_group 0
// CHECK-NEXT:      threadgroup.sync
tilus.kernel @hopper_matmul_v1(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
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
  %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  // wgmma accumulates (scale-d = 1), so the accumulator starts at zero.
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  %phase0 = mbarrier.consumer_initial_phase
  %res:2 = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %acc0, %phase = %phase0) -> (!tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32) : i32 {
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx_bytes : !mbarrier.barriers<1>
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
    }
    threadgroup.sync
    // The 128 threads of the block are the warpgroup.
    wgmma.fence
    %acc2 = wgmma.mma %sa, %sbt, %acc : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
    wgmma.commit_group
    wgmma.wait_group 0
    // The MMA has read the tiles; the next TMA may overwrite them.
    threadgroup.sync
    %next = arith.xori %phase, %c1 : i32
    scf.yield %acc2, %next : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32
  }
  // Epilogue: convert in place (same layout) and store straight from the fragment.
  %out = tilus.cast %res#0 : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<128x128xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  tilus.store_global %out, %gc[%offset_m, %offset_n] : !tilus.reg<128x128xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
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
