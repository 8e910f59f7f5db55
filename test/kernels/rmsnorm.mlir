// RMSNorm over rows without any layout: f16 in, f32 math, f16 out, the weight row broadcast.
//
//   y[i, j] = x[i, j] * rsqrt(mean_j(x[i, j]^2) + eps) * w[j]
//
// infer-layouts picks what examples/rmsnorm_rowwise.mlir writes by hand for @rmsnorm_4096.
//
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s
// CHECK-LABEL: tilus.kernel @rmsnorm
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<4096xf16, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)>
// CHECK: tilus.reduce sum {{.*}} -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
// CHECK-NOT: layout.convert
// CHECK-LABEL: tilus.kernel @rmsnorm_ref
//
// RUN: tilus-run %s --dump-ptx --kernel rmsnorm | FileCheck %s --check-prefix=PTX
// PTX: ld.global.v4.b32
// The slow path (a block past the last row) zeroes each pair of halves with one move, loads
// each half under its bounds check, and packs the pair into the word the fast path loads.
// PTX: mov.b32 {%[[LO:h[0-9]+]], %[[HI:h[0-9]+]]}, 0;
// PTX-NEXT: @%p{{[0-9]+}} ld.global.b16 %[[LO]], [%rd{{[0-9]+}}];
// PTX-NEXT: @%p{{[0-9]+}} ld.global.b16 %[[HI]], [%rd{{[0-9]+}}+2];
// PTX-NEXT: mov.b32 %r{{[0-9]+}}, {%[[LO]], %[[HI]]};
// PTX: st.global.v4.b32
// RUN: tilus-run %s --kernel rmsnorm | FileCheck %s --check-prefix=INTERP
// INTERP: check y vs reference @rmsnorm_ref: ok

tilus.kernel @rmsnorm(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 2)>)
    attributes {tilus.args = {m = 16 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.reference = "rmsnorm_ref", tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %inv_n = arith.constant 0.000244140625 : f32
  %row = arith.muli %bx, %c2 : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<2x4096xf16>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<4096xf16> -> !tilus.reg<4096xf16>
  %xf = tilus.cast %xh : !tilus.reg<2x4096xf16> to !tilus.reg<2x4096xf32>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<2x4096xf32>, !tilus.reg<2x4096xf32>) -> !tilus.reg<2x4096xf32>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<2x4096xf32> -> !tilus.reg<2x1xf32>
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %me = tilus.add %ms, %et : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %rstd = tilus.rsqrt %me : !tilus.reg<2x1xf32>
  %wf = tilus.cast %wh : !tilus.reg<4096xf16> to !tilus.reg<4096xf32>
  %xn = tilus.mul %xf, %rstd : (!tilus.reg<2x4096xf32>, !tilus.reg<2x1xf32>) -> !tilus.reg<2x4096xf32>
  %yf = tilus.mul %xn, %wf : (!tilus.reg<2x4096xf32>, !tilus.reg<4096xf32>) -> !tilus.reg<2x4096xf32>
  %yh = tilus.cast %yf : !tilus.reg<2x4096xf32> to !tilus.reg<2x4096xf16>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<2x4096xf16>, !tilus.global<?x4096xf16>
}

// The reference: one warp per row, two sweeps of 256 columns.
tilus.kernel @rmsnorm_ref(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3)>)
    attributes {tilus.args = {m = 16 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"]} {
  %row = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %c4096 = arith.constant 4096 : i32
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant 4096.0 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x256xf32>
  %acc = scf.for %k = %c0 to %c4096 step %c256 iter_args(%a = %z) -> (!tilus.reg<1x256xf32>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x4096xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %q = tilus.mul %tf, %tf : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    %a2 = tilus.add %a, %q : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    scf.yield %a2 : !tilus.reg<1x256xf32>
  }
  %s = tilus.reduce sum %acc dim(1) keepdim : !tilus.reg<1x256xf32> -> !tilus.reg<1x1xf32>
  %nt = tilus.register_tensor init(%nf : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.div %s, %nt : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %me = tilus.add %ms, %et : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %rstd = tilus.rsqrt %me : !tilus.reg<1x1xf32>
  scf.for %k = %c0 to %c4096 step %c256 : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x4096xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %xn = tilus.mul %tf, %rstd : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %wh = tilus.load_global %gw[%k] : !tilus.global<4096xf16> -> !tilus.reg<256xf16>
    %wf = tilus.cast %wh : !tilus.reg<256xf16> to !tilus.reg<256xf32>
    %yf = tilus.mul %xn, %wf : (!tilus.reg<1x256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<1x256xf32>
    %yh = tilus.cast %yf : !tilus.reg<1x256xf32> to !tilus.reg<1x256xf16>
    tilus.store_global %yh, %gy[%row, %k] : !tilus.reg<1x256xf16>, !tilus.global<?x4096xf16>
  }
}
