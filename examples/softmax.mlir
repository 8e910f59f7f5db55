// Fused softmax over rows, the FusedSoftmax kernel of spec §9 (core-op examples).
//
//   y[i, j] = exp(x[i, j] - max_j x[i, :]) / sum_j exp(x[i, j] - max_j x[i, :])
//
// One block of 4 warps per 4 rows; rows of any length n (a multiple of 256 here) are swept in
// [4, 256] f32 tiles, three times, as in Tilus:
//   1. a running element-wise `tilus.maximum` into a -inf tile, then `tilus.reduce max`;
//   2. `exp(x - rowmax)` accumulated into a tile, then `tilus.reduce sum`;
//   3. recompute `exp(x - rowmax)`, divide by the row sum, cast to f16, store.
// Broadcasting does the [4, 256] op [4, 1] steps. The row statistics live in the layout
// `spatial(4, 1) * replicate(32)`: warp w's 32 lanes all hold row w's max and sum, which is
// what the in-warp shuffle reduction leaves behind, so the broadcasts move no data.
//
// Masking: load_global reads out-of-range elements as 0, which would add exp(0 - max) terms to
// the sum (spec §9 "Caution"); this example therefore requires n to be a multiple of 256. A
// ragged n needs an explicit `tilus.cmp` + `tilus.where` against a column-index tile.
//
// Check: tilus-opt examples/softmax.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernel's default arguments (tilus.args):
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// INTERP: output y: f16[8, 512]

// CHECK-LABEL: tilus.kernel @softmax
// CHECK:         scf.for
// CHECK:           tilus.maximum
// CHECK:         tilus.reduce max %{{.*}} dim(1) keepdim : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
// CHECK:         scf.for
// CHECK:           tilus.sub
// CHECK-NEXT:      tilus.exp
// CHECK:         tilus.reduce sum %{{.*}} dim(1) keepdim : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
// CHECK:         scf.for
// CHECK:           tilus.div
// CHECK-NEXT:      tilus.cast
// CHECK-NEXT:      tilus.store_global
tilus.kernel @softmax(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 4)>)
    attributes {tilus.args = {m = 8 : i32, n = 512 : i32}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c256 = arith.constant 256 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %bx, %c4 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>

  // Sweep 1: the row maximum.
  %mx0 = tilus.register_tensor init(%ninf : f32) : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  %mx_t = scf.for %k = %c0 to %n step %c256 iter_args(%mx = %mx0) -> (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %mx2 = tilus.maximum %mx, %t : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    scf.yield %mx2 : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  }
  %rowmax = tilus.reduce max %mx_t dim(1) keepdim : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>

  // Sweep 2: the sum of exp(x - rowmax).
  %s0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  %s_t = scf.for %k = %c0 to %n step %c256 iter_args(%s = %s0) -> (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %d = tilus.sub %t, %rowmax : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %e = tilus.exp %d : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %s2 = tilus.add %s, %e : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    scf.yield %s2 : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  }
  %rowsum = tilus.reduce sum %s_t dim(1) keepdim : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>

  // Sweep 3: normalize and store.
  scf.for %k = %c0 to %n step %c256 : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %d = tilus.sub %t, %rowmax : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %e = tilus.exp %d : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %p = tilus.div %e, %rowsum : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %h = tilus.cast %p : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> to !tilus.reg<4x256xf16, layout = spatial(4, 32) * local(1, 8)>
    tilus.store_global %h, %gy[%row, %k] : !tilus.reg<4x256xf16, layout = spatial(4, 32) * local(1, 8)>, !tilus.global<?x?xf16>
  }
}
