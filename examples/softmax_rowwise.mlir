// Softmax over rows, bandwidth-oriented: f16 in, f16 out, f32 math, every row held in
// registers, so each element is read once and written once.
//
//   y[i, j] = exp(x[i, j] - max_j x[i, :]) / sum_j exp(x[i, j] - max_j x[i, :])
//
// What it shows: examples/softmax.mlir sweeps an f32 x three times in [4, 256] tiles (max,
// exp-sum, normalize), 14 bytes moved per element; here a block owns whole rows and keeps them
// in registers between the two reductions, 4 bytes per element:
//
//   @softmax_4096: [2, 4096] per block, warps(4), 2 warps per row,
//                  spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)
//   @softmax_8192: [1, 8192] per block, warps(4), 4 warps per row,
//                  spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)
//
// Outermost first: rows over warp groups, one contiguous column segment per warp, 8 repeats of
// a 256-column chunk, 32 lanes, 8 contiguous f16 per lane: 64 elements a thread, each access a
// 16-byte `ld.global.v4.b32` / `st.global.v4.b32`, a warp covering 512 contiguous bytes per
// instruction. The 64 f32 values are the only large live state (about 80 registers, ptxas -v;
// one row per warp at 4096 columns, 128 values a thread, needs about 145).
//
// Why it is fast: x is loaded once, converted to f32; the row max is a thread-local fold,
// 5 `shfl.sync.bfly` steps, and one shared-memory exchange between the row's warps; then
// exp(x - max) in place (`ex2.approx.ftz` of (x - max) * log2 e), the row sum the same way,
// one reciprocal per row (`1 / sum`, on the [R, 1] statistics) and a multiply per element,
// cast to f16, one store. The statistics' layout `spatial(R, 1) * replicate(32 G)` is what the
// shuffle + shared-memory reduction leaves in every thread of the row, so the broadcasts
// `x - max` and `e * (1 / sum)` move no data. No masking is needed: the tile is exactly one
// row's width (the global views are !tilus.global<?x4096xf16> etc.), and rows past m (m not a
// multiple of R) take the lowering's predicated path and are not stored. On an H100 both
// kernels run at 99-100% of the device's copy bandwidth, 2.2-2.9x faster than torch.softmax on
// f16 (docs/perf.md).
//
// Check: tilus-opt examples/softmax_rowwise.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernels' default arguments (tilus.args: m = 64):
// RUN: tilus-run %s --kernel softmax_4096 | FileCheck %s --check-prefix=INTERP-4096
// INTERP-4096: output y: f16[64, 4096]
// RUN: tilus-run %s --kernel softmax_8192 | FileCheck %s --check-prefix=INTERP-8192
// INTERP-8192: output y: f16[64, 8192]
//
// On a GPU: bench/gpu_norm.sh (docs/perf.md, "Row-wise RMSNorm and softmax").

// CHECK-LABEL: tilus.kernel @softmax_4096
// CHECK-SAME:    warps(4)
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<2x4096xf16, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
// CHECK:         tilus.reduce max %{{.*}} dim(1) keepdim : {{.*}} -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
// CHECK:         tilus.exp
// CHECK:         tilus.reduce sum %{{.*}} dim(1) keepdim : {{.*}} -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
// CHECK:         tilus.div
// CHECK:         tilus.store_global
tilus.kernel @softmax_4096(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 2)>)
    attributes {tilus.args = {m = 64 : i32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 2 : i32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  // x once, 16-byte vectors; converted to f32 in registers.
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<2x4096xf16, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %xf = tilus.cast %xh : !tilus.reg<2x4096xf16, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  // Row max: in-thread fold, shuffles within the warp, the row's warps via shared memory.
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
  // e = exp(x - max) in place of x, then the row sum the same way as the max.
  %d = tilus.sub %xf, %mx : (!tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>) -> !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %e = tilus.exp %d : !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
  // One reciprocal per row, one multiply per element, cast, one 16-byte store per 8 elements.
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>) -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
  %p = tilus.mul %e, %inv : (!tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>) -> !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %ph = tilus.cast %p : !tilus.reg<2x4096xf32, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x4096xf16, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<2x4096xf16, layout = spatial(2, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x4096xf16>
}

// CHECK-LABEL: tilus.kernel @softmax_8192
// CHECK-SAME:    warps(4)
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<1x8192xf16, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
// CHECK:         tilus.reduce max %{{.*}} dim(1) keepdim : {{.*}} -> !tilus.reg<1x1xf32, layout = replicate(128) * local(1, 1)>
// CHECK:         tilus.exp
// CHECK:         tilus.reduce sum %{{.*}} dim(1) keepdim : {{.*}} -> !tilus.reg<1x1xf32, layout = replicate(128) * local(1, 1)>
// CHECK:         tilus.div
// CHECK:         tilus.store_global
tilus.kernel @softmax_8192(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1)>)
    attributes {tilus.args = {m = 64 : i32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 8192"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  // x once, 16-byte vectors; converted to f32 in registers.
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<1x8192xf16, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %xf = tilus.cast %xh : !tilus.reg<1x8192xf16, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  // Row max: in-thread fold, shuffles within the warp, the row's warps via shared memory.
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>
  // e = exp(x - max) in place of x, then the row sum the same way as the max.
  %d = tilus.sub %xf, %mx : (!tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %e = tilus.exp %d : !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>
  // One reciprocal per row, one multiply per element, cast, one 16-byte store per 8 elements.
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>
  %p = tilus.mul %e, %inv : (!tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %ph = tilus.cast %p : !tilus.reg<1x8192xf32, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf16, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<1x8192xf16, layout = spatial(1, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x8192xf16>
}

// Layout variants, timed beside the two kernels above by bench/gpu_norm.sh (docs/perf.md,
// "Row-wise RMSNorm and softmax"). The suffix rRgG means R rows per block, G warps per row;
// only the layouts, the block count and warps() change. r4g1 is one row per warp (4096
// columns: 128 values a thread, 145 registers, no shared memory); r2g2 at 8192 columns also
// holds 128 values a thread (146 registers); r1g4 / r1g8 hold 16 (48 registers). On an H100
// all of them are within 1% of the two kernels above (98-100% of copy).

tilus.kernel @softmax_4096_r1g4(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1)>)
    attributes {tilus.args = {m = 64 : i32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<1x4096xf16, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %xf = tilus.cast %xh : !tilus.reg<1x4096xf16, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>
  %d = tilus.sub %xf, %mx : (!tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>) -> !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %e = tilus.exp %d : !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>
  %p = tilus.mul %e, %inv : (!tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(128)>) -> !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %ph = tilus.cast %p : !tilus.reg<1x4096xf32, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x4096xf16, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<1x4096xf16, layout = spatial(1, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x4096xf16>
}

tilus.kernel @softmax_4096_r4g1(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 4)>)
    attributes {tilus.args = {m = 64 : i32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 4 : i32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<4x4096xf16, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %xf = tilus.cast %xh : !tilus.reg<4x4096xf16, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)> to !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  %d = tilus.sub %xf, %mx : (!tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %e = tilus.exp %d : !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  %p = tilus.mul %e, %inv : (!tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %ph = tilus.cast %p : !tilus.reg<4x4096xf32, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)> to !tilus.reg<4x4096xf16, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<4x4096xf16, layout = spatial(4, 1) * local(1, 16) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x4096xf16>
}

tilus.kernel @softmax_8192_r1g8(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(8) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1)>)
    attributes {tilus.args = {m = 64 : i32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 8192"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %xf = tilus.cast %xh : !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %d = tilus.sub %xf, %mx : (!tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %e = tilus.exp %d : !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %p = tilus.mul %e, %inv : (!tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %ph = tilus.cast %p : !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x8192xf16>
}

tilus.kernel @softmax_8192_r2g2(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 2)>)
    attributes {tilus.args = {m = 64 : i32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 8192"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 2 : i32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<2x8192xf16, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %xf = tilus.cast %xh : !tilus.reg<2x8192xf16, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
  %d = tilus.sub %xf, %mx : (!tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>) -> !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %e = tilus.exp %d : !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>) -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>
  %p = tilus.mul %e, %inv : (!tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(64)>) -> !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  %ph = tilus.cast %p : !tilus.reg<2x8192xf32, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x8192xf16, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<2x8192xf16, layout = spatial(2, 2) * local(1, 16) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x8192xf16>
}
