// RMSNorm, bandwidth-oriented: f16 in, f16 out, f32 math, every row held in registers.
//
//   y[i, j] = x[i, j] * rsqrt(mean_j(x[i, j]^2) + eps) * w[j]
//
// What it shows: the layout decides the memory traffic. examples/rmsnorm.mlir keeps the seed's
// [256, 256] f32 accumulator (255 registers, spills, one CTA per SM) and sweeps x twice; here
// a block owns whole rows, each row spread over a small group of warps so that it fits in
// registers, and x is read from global memory exactly once:
//
//   @rmsnorm_4096: [2, 4096] per block, warps(8), 4 warps per row,
//                  spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)
//   @rmsnorm_8192: [1, 8192] per block, warps(8), 8 warps per row,
//                  spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)
//
// Read outermost first: rows over warp groups, a row's columns cut into one contiguous segment
// per warp (spatial(.., G)), then 4 repeats of a 256-column chunk, 32 lanes, 8 contiguous f16.
// So each thread holds 4 x 8 = 32 elements, and every access is one 16-byte
// `ld.global.v4.b32` / `st.global.v4.b32` with consecutive lanes on consecutive 16-byte chunks
// (a warp moves 512 contiguous bytes per instruction). 32 f32 values of x plus 32 of w is what
// keeps the kernel near 80 registers (ptxas -v), so 3 CTAs of 256 threads fit on an SM; one
// row per warp (128 values a thread) would need about 255 registers and spill.
//
// Why it is fast: one read of x and one write of y (4 bytes an element), 16-byte vectors,
// no loop; w (8 or 16 KiB) is loaded once per block, replicated over the block's rows
// (`replicate(R) * spatial(G) * local(4) * spatial(32) * local(8)`), so the broadcast
// `x * rstd * w` moves no data and w's loads are issued with x's, before the reduction; its
// re-reads come from cache, not DRAM. The sum of squares is folded in each thread (32
// adds), then 5 `shfl.sync.bfly` steps within the warp, then the G warp partials of a row
// through shared memory (one `bar.sync` pair). The grid is m / R blocks: 4096 blocks at
// 8192 x 4096, 32768 at 32768 x 8192. On an H100 both kernels run at 98-101% of the device's
// copy bandwidth, 1.3-1.5x faster than PyTorch's F.rms_norm (docs/perf.md).
//
// The kernels require m to be a multiple of R only for speed: a block whose rows run past m
// takes the lowering's predicated scalar path (rows past m read as 0, their stores dropped).
// The column count is the kernel's (the global views are !tilus.global<?x4096xf16> etc.).
//
// Check: tilus-opt examples/rmsnorm_rowwise.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernels' default arguments (tilus.args: m = 64):
// RUN: tilus-run %s --kernel rmsnorm_4096 | FileCheck %s --check-prefix=INTERP-4096
// INTERP-4096: output y: f16[64, 4096]
// RUN: tilus-run %s --kernel rmsnorm_8192 | FileCheck %s --check-prefix=INTERP-8192
// INTERP-8192: output y: f16[64, 8192]
//
// On a GPU: bench/gpu_norm.sh (docs/perf.md, "Row-wise RMSNorm and softmax").

// CHECK-LABEL: tilus.kernel @rmsnorm_4096
// CHECK-SAME:    warps(8)
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<4096xf16, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)>
// CHECK:         tilus.reduce sum %{{.*}} dim(1) keepdim : {{.*}} -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
// CHECK:         tilus.rsqrt
// CHECK:         tilus.store_global
tilus.kernel @rmsnorm_4096(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 2)>)
    attributes {tilus.args = {m = 64 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 2 : i32
  %inv_n = arith.constant 0.000244140625 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  // x once (16-byte vectors), and w with it, so both loads are in flight together.
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<4096xf16> -> !tilus.reg<4096xf16, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)>
  %xf = tilus.cast %xh : !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  // Sum of squares: in-thread fold, shuffles within the warp, the row's warps via shared memory.
  %sq = tilus.mul %xf, %xf : (!tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>) -> !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  // rstd = rsqrt(ss * (1/n) + eps) on [R, 1] (1/n is exact: n is a power of two).
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  %me = tilus.add %ms, %et : (!tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  %rstd = tilus.rsqrt %me : !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  // y = x * rstd * w: both broadcasts are register-local; one 16-byte store per 8 elements.
  %wf = tilus.cast %wh : !tilus.reg<4096xf16, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)> to !tilus.reg<4096xf32, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>) -> !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4096xf32, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)>) -> !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %yh = tilus.cast %yf : !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x4096xf16>
}

// CHECK-LABEL: tilus.kernel @rmsnorm_8192
// CHECK-SAME:    warps(8)
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<8192xf16, layout = spatial(8) * local(4) * spatial(32) * local(8)>
// CHECK:         tilus.reduce sum %{{.*}} dim(1) keepdim : {{.*}} -> !tilus.reg<1x1xf32, layout = replicate(256) * local(1, 1)>
// CHECK:         tilus.rsqrt
// CHECK:         tilus.store_global
tilus.kernel @rmsnorm_8192(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 1)>)
    attributes {tilus.args = {m = 64 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 8192"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 1 : i32
  %inv_n = arith.constant 0.0001220703125 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<8192xf16>
  // x once (16-byte vectors), and w with it, so both loads are in flight together.
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<8192xf16> -> !tilus.reg<8192xf16, layout = spatial(8) * local(4) * spatial(32) * local(8)>
  %xf = tilus.cast %xh : !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  // Sum of squares: in-thread fold, shuffles within the warp, the row's warps via shared memory.
  %sq = tilus.mul %xf, %xf : (!tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  // rstd = rsqrt(ss * (1/n) + eps) on [R, 1] (1/n is exact: n is a power of two).
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %me = tilus.add %ms, %et : (!tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %rstd = tilus.rsqrt %me : !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  // y = x * rstd * w: both broadcasts are register-local; one 16-byte store per 8 elements.
  %wf = tilus.cast %wh : !tilus.reg<8192xf16, layout = spatial(8) * local(4) * spatial(32) * local(8)> to !tilus.reg<8192xf32, layout = spatial(8) * local(4) * spatial(32) * local(8)>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.reg<8192xf32, layout = spatial(8) * local(4) * spatial(32) * local(8)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  %yh = tilus.cast %yf : !tilus.reg<1x8192xf32, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x8192xf16>
}

// Layout variants, timed beside the two kernels above by bench/gpu_norm.sh (docs/perf.md,
// "Row-wise RMSNorm and softmax"). The suffix rRgG means R rows per block, G warps per row;
// only the layouts, the block count and warps() change. On an H100:
//   r4g2, r2g4 (64 values a thread): 146 registers, one 256-thread CTA per SM, 82-85% of copy;
//   r1g8 (4096) and r1g16 (8192, 512 threads), 16 values a thread, 48-51 registers: as fast as
//   @rmsnorm_4096 at 4096 columns, 5% slower than @rmsnorm_8192 at 8192.

tilus.kernel @rmsnorm_4096_r1g8(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 1)>)
    attributes {tilus.args = {m = 64 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 1 : i32
  %inv_n = arith.constant 0.000244140625 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<1x4096xf16, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<4096xf16> -> !tilus.reg<4096xf16, layout = spatial(8) * local(2) * spatial(32) * local(8)>
  %xf = tilus.cast %xh : !tilus.reg<1x4096xf16, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>) -> !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %me = tilus.add %ms, %et : (!tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %rstd = tilus.rsqrt %me : !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>
  %wf = tilus.cast %wh : !tilus.reg<4096xf16, layout = spatial(8) * local(2) * spatial(32) * local(8)> to !tilus.reg<4096xf32, layout = spatial(8) * local(2) * spatial(32) * local(8)>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(256)>) -> !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4096xf32, layout = spatial(8) * local(2) * spatial(32) * local(8)>) -> !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %yh = tilus.cast %yf : !tilus.reg<1x4096xf32, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x4096xf16, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<1x4096xf16, layout = spatial(1, 8) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x4096xf16>
}

tilus.kernel @rmsnorm_4096_r4g2(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 4)>)
    attributes {tilus.args = {m = 64 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 4 : i32
  %inv_n = arith.constant 0.000244140625 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<4x4096xf16, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<4096xf16> -> !tilus.reg<4096xf16, layout = replicate(4) * spatial(2) * local(8) * spatial(32) * local(8)>
  %xf = tilus.cast %xh : !tilus.reg<4x4096xf16, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>) -> !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>, !tilus.reg<1x1xf32>) -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>
  %me = tilus.add %ms, %et : (!tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>, !tilus.reg<1x1xf32>) -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>
  %rstd = tilus.rsqrt %me : !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>
  %wf = tilus.cast %wh : !tilus.reg<4096xf16, layout = replicate(4) * spatial(2) * local(8) * spatial(32) * local(8)> to !tilus.reg<4096xf32, layout = replicate(4) * spatial(2) * local(8) * spatial(32) * local(8)>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(64)>) -> !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<4096xf32, layout = replicate(4) * spatial(2) * local(8) * spatial(32) * local(8)>) -> !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %yh = tilus.cast %yf : !tilus.reg<4x4096xf32, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<4x4096xf16, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<4x4096xf16, layout = spatial(4, 2) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x4096xf16>
}

tilus.kernel @rmsnorm_8192_r1g16(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(16) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 1)>)
    attributes {tilus.args = {m = 64 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 8192"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 1 : i32
  %inv_n = arith.constant 0.0001220703125 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<8192xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<1x8192xf16, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<8192xf16> -> !tilus.reg<8192xf16, layout = spatial(16) * local(2) * spatial(32) * local(8)>
  %xf = tilus.cast %xh : !tilus.reg<1x8192xf16, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>
  %me = tilus.add %ms, %et : (!tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>
  %rstd = tilus.rsqrt %me : !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>
  %wf = tilus.cast %wh : !tilus.reg<8192xf16, layout = spatial(16) * local(2) * spatial(32) * local(8)> to !tilus.reg<8192xf32, layout = spatial(16) * local(2) * spatial(32) * local(8)>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.reg<1x1xf32, layout = spatial(1, 1) * replicate(512)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.reg<8192xf32, layout = spatial(16) * local(2) * spatial(32) * local(8)>) -> !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  %yh = tilus.cast %yf : !tilus.reg<1x8192xf32, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)> to !tilus.reg<1x8192xf16, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<1x8192xf16, layout = spatial(1, 16) * local(1, 2) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x8192xf16>
}

tilus.kernel @rmsnorm_8192_r2g4(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 2)>)
    attributes {tilus.args = {m = 64 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.bytes = "4 * m * 8192"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %cR = arith.constant 2 : i32
  %inv_n = arith.constant 0.0001220703125 : f32
  %row = arith.muli %bx, %cR : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<8192xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<2x8192xf16, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<8192xf16> -> !tilus.reg<8192xf16, layout = replicate(2) * spatial(4) * local(8) * spatial(32) * local(8)>
  %xf = tilus.cast %xh : !tilus.reg<2x8192xf16, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>) -> !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  %me = tilus.add %ms, %et : (!tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  %rstd = tilus.rsqrt %me : !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
  %wf = tilus.cast %wh : !tilus.reg<8192xf16, layout = replicate(2) * spatial(4) * local(8) * spatial(32) * local(8)> to !tilus.reg<8192xf32, layout = replicate(2) * spatial(4) * local(8) * spatial(32) * local(8)>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>) -> !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.reg<8192xf32, layout = replicate(2) * spatial(4) * local(8) * spatial(32) * local(8)>) -> !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  %yh = tilus.cast %yf : !tilus.reg<2x8192xf32, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)> to !tilus.reg<2x8192xf16, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<2x8192xf16, layout = spatial(2, 4) * local(1, 8) * spatial(1, 32) * local(1, 8)>, !tilus.global<?x8192xf16>
}
