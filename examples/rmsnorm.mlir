// RMSNorm with the CK-Tile thread distribution of seed 002, written as explicit register layouts.
//
//   y[i, j] = x[i, j] * rsqrt(mean_j(x[i, j]^2) + eps) * w[j]
//
// Seed 002 (CK-Tile "Thread Mapping") describes its RMSNorm tile as repeat (4, 4) x warps per
// block (2, 2) x threads per warp (8, 8) x vector (4, 4). Each level is one layout primitive,
// outermost first (docs/guide/layouts.md, "Hierarchical distributions: CK-Tile"):
//
//   local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)      on a [256, 256] tile
//
// CK's warps are 64 lanes wide; on NVIDIA hardware the same 256 threads are 8 warps
// (`warps(8)`), and the verifiers check that every layout in the kernel spans exactly those 256
// threads. Thread t = 64 * (2 * wm + wn) + 8 * lm + ln owns, in each of the 4x4 repeats, the 4x4
// vector at rows 64 i + 32 wm + 4 lm + [0, 4), columns 64 jj + 32 wn + 4 ln + [0, 4): adjacent
// lanes get adjacent 16-byte vectors (coalesced). The shapes follow the seed exactly; 256
// values per thread is more than a production kernel would keep live.
//
// The row reduction turns the column digits into replication: the [256, 1] sum is held by
// the 16 threads (wn, ln) that shared the row. The weight row w[j] is held in the layout with
// the row digits replicated, so both broadcasts (over columns, over rows) move no data.
// Pass 1 sums each column tile's x^2 along its rows into the [256, 1] sum; pass 2 normalizes
// the tiles (spec §9 LayerNorm has the same two-pass shape). Lowered for sm_90a it spills no
// registers (test/lower/ptxas-rmsnorm-spills.mlir): a thread holds one 128-register x tile at
// a time.
//
// Check: tilus-opt examples/rmsnorm.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernel's default arguments (tilus.args):
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// INTERP: output y: f16[256, 512]

// CHECK-LABEL: tilus.kernel @rmsnorm
// CHECK-SAME:    warps(8)
// CHECK:         scf.for
// CHECK:           tilus.load_global {{.*}} -> !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
// CHECK:           tilus.mul
// CHECK:           tilus.reduce sum %{{.*}} dim(1) keepdim : !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)> -> !tilus.reg<256x1xf32, layout = [[RED:.*]]>
// CHECK:           tilus.add
// CHECK:         tilus.rsqrt %{{.*}} : !tilus.reg<256x1xf32, layout = [[RED]]>
// CHECK:         scf.for
// CHECK:           tilus.load_global {{.*}} -> !tilus.reg<256xf16, layout = local(4) * replicate(2) * spatial(2) * replicate(8) * spatial(8) * local(4)>
// CHECK:           tilus.store_global
tilus.kernel @rmsnorm(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 256)>)
    attributes {tilus.args = {m = 256 : i32, n = 512 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %bx, %c256 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gw = tilus.global_view %w[%n] : !tilus.ptr<f16> -> !tilus.global<?xf16>

  // Pass 1: ss += rowsum(x^2), tile by tile. As in CK-Tile's two-pass pipeline, what crosses
  // the column loop is the reduced [256, 1] tile, never a [256, 256] accumulator (256 more f32
  // registers a thread). Each tile's row sums: in-thread (16 registers per repeat row), in-warp
  // over ln (shuffles), across the wn warp pair (shared memory); every thread of a row ends
  // with its sum.
  %ss0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>
  %ss = scf.for %k = %c0 to %n step %c256 iter_args(%a = %ss0) -> (!tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>) : i32 {
    %xh = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf16> -> !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    %xf = tilus.cast %xh : !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)> to !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    %sq = tilus.mul %xf, %xf : (!tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>, !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>) -> !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    %ts = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)> -> !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>
    %a2 = tilus.add %a, %ts : (!tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>, !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>) -> !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>
    scf.yield %a2 : !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>
  }
  // rstd = rsqrt(ss / n + eps), on [256, 1].
  %nf = arith.sitofp %n : i32 to f32
  %nt = tilus.register_tensor init(%nf : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %mean = tilus.div %ss, %nt : (!tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>, !tilus.reg<1x1xf32>) -> !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>
  %me = tilus.add %mean, %et : (!tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>, !tilus.reg<1x1xf32>) -> !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>
  %rstd = tilus.rsqrt %me : !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>

  // Pass 2: y = x * rstd * w, tile by tile.
  scf.for %k = %c0 to %n step %c256 : i32 {
    %xh = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf16> -> !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    %xf = tilus.cast %xh : !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)> to !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    // The weight row, replicated over the row digits (wm, lm) of the tile's layout.
    %wh = tilus.load_global %gw[%k] : !tilus.global<?xf16> -> !tilus.reg<256xf16, layout = local(4) * replicate(2) * spatial(2) * replicate(8) * spatial(8) * local(4)>
    %wf = tilus.cast %wh : !tilus.reg<256xf16, layout = local(4) * replicate(2) * spatial(2) * replicate(8) * spatial(8) * local(4)> to !tilus.reg<256xf32, layout = local(4) * replicate(2) * spatial(2) * replicate(8) * spatial(8) * local(4)>
    %xn = tilus.mul %xf, %rstd : (!tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>, !tilus.reg<256x1xf32, layout = local(4, 1) * spatial(2, 1) * replicate(2) * spatial(8, 1) * replicate(8) * local(4, 1)>) -> !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    %yf = tilus.mul %xn, %wf : (!tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>, !tilus.reg<256xf32, layout = local(4) * replicate(2) * spatial(2) * replicate(8) * spatial(8) * local(4)>) -> !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    %yh = tilus.cast %yf : !tilus.reg<256x256xf32, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)> to !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>
    tilus.store_global %yh, %gy[%row, %k] : !tilus.reg<256x256xf16, layout = local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)>, !tilus.global<?x?xf16>
  }
}
