// Reductions: a row sum, and the two-stage block reduction of Metal kernels.
//
// @row_sum mirrors the reduction sweeps of the spec's softmax and layer-norm kernels (spec §9,
// core-op examples): one block per 4 rows, one warp per row, a running [4, 128] tile summed
// over the columns in an scf.for, then one `tilus.reduce`. The reduced tile is held by every
// lane of its warp (`spatial(4) * replicate(32)`, docs/guide/layouts.md "Replication").
//
// @block_sum mirrors seed 004's "two-stage reduction" (Metal: simd_sum per SIMD group, partials
// through threadgroup memory, threadgroup_barrier, then SIMD group 0 sums the partials), with
// every stage written out: a thread-local and in-warp `tilus.reduce` per warp, the 4 partials
// stored to a shared tensor, `threadgroup.sync`, and a final reduce by one warp
// (`threadgroup.single_warp`). The block's partial goes to `out[blockIdx.x]`; a second launch
// (or an atomic) would combine the blocks.
//
// Check: tilus-opt examples/reduction.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernels' default arguments (tilus.args):
// RUN: tilus-run %s --kernel row_sum | FileCheck %s --check-prefix=ROW-SUM
// ROW-SUM: output y: f32[8]
// RUN: tilus-run %s --kernel block_sum | FileCheck %s --check-prefix=BLOCK-SUM
// BLOCK-SUM: output out: f32[2]

// CHECK-LABEL: tilus.kernel @row_sum
// CHECK:         scf.for
// CHECK:           tilus.add
// CHECK:         tilus.reduce sum %{{.*}} dim(1) : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> -> !tilus.reg<4xf32, layout = spatial(4) * replicate(32)>
// CHECK:         tilus.store_global
tilus.kernel @row_sum(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 4)>)
    attributes {tilus.args = {m = 8 : i32, n = 300 : i32}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %bx, %c4 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  // Warp w holds row w; lane l holds columns [4l, 4l + 4) of every 128-column step.
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
  %acc = scf.for %k = %c0 to %n step %c128 iter_args(%acc_i = %acc0) -> (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>) : i32 {
    // Columns past n read as 0, which is neutral for a sum.
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
    %s = tilus.add %acc_i, %t : (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>, !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>) -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
    scf.yield %s : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
  }
  // Thread-local adds, then shuffles within each warp; every lane of warp w ends with row w's sum.
  %sum = tilus.reduce sum %acc dim(1) : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> -> !tilus.reg<4xf32, layout = spatial(4) * replicate(32)>
  tilus.store_global %sum, %gy[%row] : !tilus.reg<4xf32, layout = spatial(4) * replicate(32)>, !tilus.global<?xf32>
}

// CHECK-LABEL: tilus.kernel @block_sum
// CHECK:         %[[P:.*]] = tilus.shared_tensor : !tilus.shared<4x1xf32>
// CHECK:         tilus.reduce sum %{{.*}} dim(1) keepdim : !tilus.reg<4x1024xf32, layout = local(1, 32) * spatial(4, 32)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
// CHECK-NEXT:    tilus.store_shared %{{.*}}, %[[P]]
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    threadgroup.single_warp {
// CHECK-NEXT:      tilus.load_shared %[[P]] : !tilus.shared<4x1xf32> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(8)>
// CHECK-NEXT:      tilus.reduce sum %{{.*}} dim(0) :
// CHECK-NEXT:      tilus.store_global
// CHECK-NEXT:    }
// CHECK-NEXT:    tilus.free_shared %[[P]]
tilus.kernel @block_sum(%x: !tilus.ptr<f32>, %out: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 4096)>)
    attributes {tilus.args = {n = 8192 : i32}, tilus.outputs = ["out"]} {
  %bx = tilus.block_id x
  %c1024 = arith.constant 1024 : i32
  %c4 = arith.constant 4 : i32
  %c0 = arith.constant 0 : i32
  // View x as rows of 1024 (n is a multiple of 1024 here); a block owns 4 rows = 4096 elements.
  %rows = arith.divsi %n, %c1024 : i32
  %nblocks = tilus.num_blocks x
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x1024xf32>
  %gout = tilus.global_view %out[%nblocks] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %row = arith.muli %bx, %c4 : i32
  // Warp w (SIMD group w) holds row w; lane l holds columns l, l + 32, ... (Metal's stride loop).
  %t = tilus.load_global %gx[%row, %c0] : !tilus.global<?x1024xf32> -> !tilus.reg<4x1024xf32, layout = spatial(4, 1) * local(1, 32) * spatial(1, 32)>
  %partials = tilus.shared_tensor : !tilus.shared<4x1xf32>
  // Stage 1 (simd_sum): 32 registers per thread, then 5 shuffle steps across the lanes.
  %warp_sum = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<4x1024xf32, layout = spatial(4, 1) * local(1, 32) * spatial(1, 32)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  // Every lane of warp w writes partials[w] (the same value; the lowering keeps one store).
  tilus.store_shared %warp_sum, %partials : !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>, !tilus.shared<4x1xf32>
  // threadgroup_barrier(mem_threadgroup): the partials are visible to every warp.
  threadgroup.sync
  // Stage 2: warp 0 reads the 4 partials (8 lanes per partial) and sums them.
  threadgroup.single_warp {
    %p = tilus.load_shared %partials : !tilus.shared<4x1xf32> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(8)>
    %total = tilus.reduce sum %p dim(0) : !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(8)> -> !tilus.reg<1xf32, layout = local(1) * replicate(32)>
    tilus.store_global %total, %gout[%bx] : !tilus.reg<1xf32, layout = local(1) * replicate(32)>, !tilus.global<?xf32>
  }
  tilus.free_shared %partials : !tilus.shared<4x1xf32>
}
