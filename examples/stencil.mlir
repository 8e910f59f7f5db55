// Broadcasting and a shuffle stencil: seed 004's SIMD patterns 2 and 4 written as tile ops.
//
// @add_bias broadcasts a row vector over a tile, y[i, j] = x[i, j] + scale * bias[j]
// (elementwise ops broadcast as in NumPy, spec §2.4). The bias tile is loaded once per block
// in the layout `replicate(4) * spatial(32) * local(4)`: every warp holds the whole row, lane l
// the 4 columns it needs for the [16, 128] tile, so the add moves no data. The scalar `scale`
// is splatted into a 1x1 tensor (`tilus.register_tensor init`), the tile form of Metal's
// `simd_broadcast_first`: one value seen by every thread.
//
// @stencil3 is the 1-D 3-point stencil y = 0.25 * x[i-1] + 0.5 * x[i] + 0.25 * x[i+1] of seed
// 004 ("SIMD shuffle for data reuse"): each thread loads one element, and
// `tilus.shuffle_up`/`tilus.shuffle_down` (shfl.sync up/down by 1) fetch the neighbours' values
// from the lanes beside it instead of loading them again. As in the seed, a lane whose
// neighbour lies outside its warp keeps its own value, so every 32-element warp segment is
// computed with clamped ends; a full stencil would add a halo (load lanes 0 and 31's missing
// neighbours separately).
//
// Check: tilus-opt examples/stencil.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernels' default arguments (tilus.args):
// RUN: tilus-run %s --kernel add_bias | FileCheck %s --check-prefix=ADD-BIAS
// ADD-BIAS: output y: f32[40, 200]
// RUN: tilus-run %s --kernel stencil3 | FileCheck %s --check-prefix=STENCIL3
// STENCIL3: output y: f32[300]

// CHECK-LABEL: tilus.kernel @add_bias
// CHECK:         tilus.load_global %{{.*}} : !tilus.global<?xf32> -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
// CHECK:         tilus.register_tensor init(%{{.*}} : f32) : !tilus.reg<1xf32>
// CHECK:         tilus.mul %{{.*}}, %{{.*}} : (!tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
// CHECK:         tilus.add %{{.*}}, %{{.*}} : (!tilus.reg<16x128xf32, layout = local(4, 1) * spatial(4, 32) * local(1, 4)>, !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>) -> !tilus.reg<16x128xf32, layout = local(4, 1) * spatial(4, 32) * local(1, 4)>
tilus.kernel @add_bias(%x: !tilus.ptr<f32>, %bias: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %scale: f32, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d4 ceildiv 16, d5 ceildiv 128)>)
    attributes {tilus.args = {scale = 5.0e-01 : f32, m = 40 : i32, n = 200 : i32}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %c16 = arith.constant 16 : i32
  %c128 = arith.constant 128 : i32
  %row = arith.muli %bx, %c16 : i32
  %col = arith.muli %by, %c128 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gb = tilus.global_view %bias[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  // Thread 32w + l holds rows {w, w + 4, w + 8, w + 12} x columns [4l, 4l + 4).
  %t = tilus.load_global %gx[%row, %col] : !tilus.global<?x?xf32> -> !tilus.reg<16x128xf32, layout = local(4, 1) * spatial(4, 32) * local(1, 4)>
  // The row vector: the same 128 values in every warp (replicated over the 4 warps).
  %b = tilus.load_global %gb[%col] : !tilus.global<?xf32> -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
  // A scalar joins tile arithmetic as a 1-element tensor; broadcasting stretches it.
  %s = tilus.register_tensor init(%scale : f32) : !tilus.reg<1xf32>
  %sb = tilus.mul %b, %s : (!tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
  // [16, 128] + [128]: the row vector is stretched over the 16 rows.
  %r = tilus.add %t, %sb : (!tilus.reg<16x128xf32, layout = local(4, 1) * spatial(4, 32) * local(1, 4)>, !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>) -> !tilus.reg<16x128xf32, layout = local(4, 1) * spatial(4, 32) * local(1, 4)>
  tilus.store_global %r, %gy[%row, %col] : !tilus.reg<16x128xf32, layout = local(4, 1) * spatial(4, 32) * local(1, 4)>, !tilus.global<?x?xf32>
}

// CHECK-LABEL: tilus.kernel @stencil3
// CHECK:         %[[X:.*]] = tilus.load_global {{.*}} -> !tilus.reg<128xf32, layout = spatial(128)>
// CHECK:         tilus.shuffle_up %[[X]], %{{.*}} : !tilus.reg<128xf32, layout = spatial(128)>
// CHECK-NEXT:    tilus.shuffle_down %[[X]], %{{.*}} : !tilus.reg<128xf32, layout = spatial(128)>
// CHECK:         tilus.store_global
tilus.kernel @stencil3(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 128)>)
    attributes {tilus.args = {n = 300 : i32}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %c128 = arith.constant 128 : i32
  %c1 = arith.constant 1 : i32
  %base = arith.muli %bx, %c128 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  // One element per thread: lane l of warp w holds x[base + 32w + l].
  %v = tilus.load_global %gx[%base] : !tilus.global<?xf32> -> !tilus.reg<128xf32, layout = spatial(128)>
  // simd_shuffle_up(v, 1): lane l gets lane l - 1's value; simd_shuffle_down: lane l + 1's.
  %left = tilus.shuffle_up %v, %c1 : !tilus.reg<128xf32, layout = spatial(128)>
  %right = tilus.shuffle_down %v, %c1 : !tilus.reg<128xf32, layout = spatial(128)>
  // The weights [0.25, 0.5, 0.25], each splatted and broadcast.
  %q = arith.constant 0.25 : f32
  %h = arith.constant 0.5 : f32
  %wq = tilus.register_tensor init(%q : f32) : !tilus.reg<1xf32>
  %wh = tilus.register_tensor init(%h : f32) : !tilus.reg<1xf32>
  %lr = tilus.add %left, %right : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<128xf32, layout = spatial(128)>) -> !tilus.reg<128xf32, layout = spatial(128)>
  %a = tilus.mul %lr, %wq : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = spatial(128)>
  %c = tilus.mul %v, %wh : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = spatial(128)>
  %out = tilus.add %a, %c : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<128xf32, layout = spatial(128)>) -> !tilus.reg<128xf32, layout = spatial(128)>
  tilus.store_global %out, %gy[%base] : !tilus.reg<128xf32, layout = spatial(128)>, !tilus.global<?xf32>
}
