// LayerNorm over rows, written as a new user would: no layouts anywhere. f16 in, f32 math,
// f16 out; the weight and bias rows are broadcast over the block's rows.
//
//   y[i, j] = (x[i, j] - mean_i) * rsqrt(var_i + eps) * w[j] + b[j]
//
// infer-layouts gives the [2, 4096] tile 16-byte vectors along the row, 4 warps per row (the
// reduction stays in the row's warps), and the f32 copies the same thread mapping as the f16
// load; w and b are loaded replicated over the two rows, so the broadcasts move no data.
//
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s
// CHECK-LABEL: tilus.kernel @layernorm
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<2x4096xf16, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
// CHECK: tilus.cast {{.*}} to !tilus.reg<2x4096xf32, layout = spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)>
// CHECK: tilus.reduce sum {{.*}} -> !tilus.reg<2x1xf32, layout = spatial(2, 1) * replicate(128)>
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<4096xf16, layout = replicate(2) * spatial(4) * local(4) * spatial(32) * local(8)>
// CHECK-NOT: layout.convert
//
// Lowers, assembles (passes/tests/ptxas_kernels.rs) and matches the naive reference on the
// interpreter:
// RUN: tilus-run %s --dump-ptx --kernel layernorm | FileCheck %s --check-prefix=PTX
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
// PTX-NOT: .local
// RUN: tilus-run %s --kernel layernorm | FileCheck %s --check-prefix=INTERP
// INTERP: check y vs reference @layernorm_ref: ok

tilus.kernel @layernorm(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d4 ceildiv 2)>)
    attributes {tilus.args = {m = 16 : i32, eps = 1.0e-05 : f32}, tilus.outputs = ["y"], tilus.reference = "layernorm_ref", tilus.bytes = "4 * m * 4096"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %inv_n = arith.constant 0.000244140625 : f32
  %row = arith.muli %bx, %c2 : i32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x4096xf16> -> !tilus.reg<2x4096xf16>
  %xf = tilus.cast %xh : !tilus.reg<2x4096xf16> to !tilus.reg<2x4096xf32>
  %it = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %s = tilus.reduce sum %xf dim(1) keepdim : !tilus.reg<2x4096xf32> -> !tilus.reg<2x1xf32>
  %mean = tilus.mul %s, %it : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %d = tilus.sub %xf, %mean : (!tilus.reg<2x4096xf32>, !tilus.reg<2x1xf32>) -> !tilus.reg<2x4096xf32>
  %sq = tilus.mul %d, %d : (!tilus.reg<2x4096xf32>, !tilus.reg<2x4096xf32>) -> !tilus.reg<2x4096xf32>
  %v = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<2x4096xf32> -> !tilus.reg<2x1xf32>
  %var = tilus.mul %v, %it : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ve = tilus.add %var, %et : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %rstd = tilus.rsqrt %ve : !tilus.reg<2x1xf32>
  %xn = tilus.mul %d, %rstd : (!tilus.reg<2x4096xf32>, !tilus.reg<2x1xf32>) -> !tilus.reg<2x4096xf32>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<4096xf16> -> !tilus.reg<4096xf16>
  %wf = tilus.cast %wh : !tilus.reg<4096xf16> to !tilus.reg<4096xf32>
  %bh = tilus.load_global %gb[%c0] : !tilus.global<4096xf16> -> !tilus.reg<4096xf16>
  %bf = tilus.cast %bh : !tilus.reg<4096xf16> to !tilus.reg<4096xf32>
  %yw = tilus.mul %xn, %wf : (!tilus.reg<2x4096xf32>, !tilus.reg<4096xf32>) -> !tilus.reg<2x4096xf32>
  %yb = tilus.add %yw, %bf : (!tilus.reg<2x4096xf32>, !tilus.reg<4096xf32>) -> !tilus.reg<2x4096xf32>
  %yh = tilus.cast %yb : !tilus.reg<2x4096xf32> to !tilus.reg<2x4096xf16>
  tilus.store_global %yh, %gy[%row, %c0] : !tilus.reg<2x4096xf16>, !tilus.global<?x4096xf16>
}

// The reference: one warp per row, the row in 256-column steps (three sweeps), no layouts.
tilus.kernel @layernorm_ref(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %eps: f32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d4)>)
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
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %nt = tilus.register_tensor init(%nf : f32) : !tilus.reg<1x1xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x256xf32>
  %acc = scf.for %k = %c0 to %c4096 step %c256 iter_args(%a = %z) -> (!tilus.reg<1x256xf32>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x4096xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %a2 = tilus.add %a, %tf : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    scf.yield %a2 : !tilus.reg<1x256xf32>
  }
  %s = tilus.reduce sum %acc dim(1) keepdim : !tilus.reg<1x256xf32> -> !tilus.reg<1x1xf32>
  %mean = tilus.div %s, %nt : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %acc2 = scf.for %k = %c0 to %c4096 step %c256 iter_args(%a = %z) -> (!tilus.reg<1x256xf32>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x4096xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %dd = tilus.sub %tf, %mean : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %q = tilus.mul %dd, %dd : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    %a2 = tilus.add %a, %q : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    scf.yield %a2 : !tilus.reg<1x256xf32>
  }
  %v = tilus.reduce sum %acc2 dim(1) keepdim : !tilus.reg<1x256xf32> -> !tilus.reg<1x1xf32>
  %var = tilus.div %v, %nt : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ve = tilus.add %var, %et : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %rstd = tilus.rsqrt %ve : !tilus.reg<1x1xf32>
  scf.for %k = %c0 to %c4096 step %c256 : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x4096xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %dd = tilus.sub %tf, %mean : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %xn = tilus.mul %dd, %rstd : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %wh = tilus.load_global %gw[%k] : !tilus.global<4096xf16> -> !tilus.reg<256xf16>
    %wf = tilus.cast %wh : !tilus.reg<256xf16> to !tilus.reg<256xf32>
    %bh = tilus.load_global %gb[%k] : !tilus.global<4096xf16> -> !tilus.reg<256xf16>
    %bf = tilus.cast %bh : !tilus.reg<256xf16> to !tilus.reg<256xf32>
    %yw = tilus.mul %xn, %wf : (!tilus.reg<1x256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<1x256xf32>
    %yb = tilus.add %yw, %bf : (!tilus.reg<1x256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<1x256xf32>
    %yh = tilus.cast %yb : !tilus.reg<1x256xf32> to !tilus.reg<1x256xf16>
    tilus.store_global %yh, %gy[%row, %k] : !tilus.reg<1x256xf16>, !tilus.global<?x4096xf16>
  }
}
