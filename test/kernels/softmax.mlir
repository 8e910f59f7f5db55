// Softmax over rows of 8192 without any layout: a block per row, 8 warps, the row in registers.
//
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s
// CHECK-LABEL: tilus.kernel @softmax
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<1x8192xf16, layout = spatial(1, 8) * local(1, 4) * spatial(1, 32) * local(1, 8)>
// CHECK: tilus.reduce max {{.*}} -> !tilus.reg<1x1xf32, layout = replicate(256) * local(1, 1)>
// CHECK-NOT: layout.convert
// CHECK-LABEL: tilus.kernel @softmax_ref
//
// RUN: tilus-run %s --dump-ptx --kernel softmax | FileCheck %s --check-prefix=PTX
// PTX: ld.global.v4.b32
// PTX: ex2.approx
// PTX: st.global.v4.b32
// RUN: tilus-run %s --kernel softmax | FileCheck %s --check-prefix=INTERP
// INTERP: check y vs reference @softmax_ref: ok

tilus.kernel @softmax(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(8) blocks(affine_map<(d0, d1, d2) -> (d2)>)
    attributes {tilus.args = {m = 8 : i32}, tilus.outputs = ["y"], tilus.reference = "softmax_ref", tilus.bytes = "4 * m * 8192"} {
  %row = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %xh = tilus.load_global %gx[%row, %c0] : !tilus.global<?x8192xf16> -> !tilus.reg<1x8192xf16>
  %xf = tilus.cast %xh : !tilus.reg<1x8192xf16> to !tilus.reg<1x8192xf32>
  %mx = tilus.reduce max %xf dim(1) keepdim : !tilus.reg<1x8192xf32> -> !tilus.reg<1x1xf32>
  %d = tilus.sub %xf, %mx : (!tilus.reg<1x8192xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x8192xf32>
  %e = tilus.exp %d : !tilus.reg<1x8192xf32>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<1x8192xf32> -> !tilus.reg<1x1xf32>
  %ot = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %inv = tilus.div %ot, %s : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %p = tilus.mul %e, %inv : (!tilus.reg<1x8192xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x8192xf32>
  %ph = tilus.cast %p : !tilus.reg<1x8192xf32> to !tilus.reg<1x8192xf16>
  tilus.store_global %ph, %gy[%row, %c0] : !tilus.reg<1x8192xf16>, !tilus.global<?x8192xf16>
}

// The reference: one warp per row, three sweeps of 256 columns.
tilus.kernel @softmax_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (d2)>)
    attributes {tilus.args = {m = 8 : i32}, tilus.outputs = ["y"]} {
  %row = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %c8192 = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x8192xf16>
  %mi = tilus.register_tensor init(%ninf : f32) : !tilus.reg<1x256xf32>
  %macc = scf.for %k = %c0 to %c8192 step %c256 iter_args(%a = %mi) -> (!tilus.reg<1x256xf32>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x8192xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %a2 = tilus.maximum %a, %tf : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    scf.yield %a2 : !tilus.reg<1x256xf32>
  }
  %mx = tilus.reduce max %macc dim(1) keepdim : !tilus.reg<1x256xf32> -> !tilus.reg<1x1xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x256xf32>
  %sacc = scf.for %k = %c0 to %c8192 step %c256 iter_args(%a = %z) -> (!tilus.reg<1x256xf32>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x8192xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %dd = tilus.sub %tf, %mx : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %e = tilus.exp %dd : !tilus.reg<1x256xf32>
    %a2 = tilus.add %a, %e : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    scf.yield %a2 : !tilus.reg<1x256xf32>
  }
  %s = tilus.reduce sum %sacc dim(1) keepdim : !tilus.reg<1x256xf32> -> !tilus.reg<1x1xf32>
  scf.for %k = %c0 to %c8192 step %c256 : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x8192xf16> -> !tilus.reg<1x256xf16>
    %tf = tilus.cast %t : !tilus.reg<1x256xf16> to !tilus.reg<1x256xf32>
    %dd = tilus.sub %tf, %mx : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %e = tilus.exp %dd : !tilus.reg<1x256xf32>
    %p = tilus.div %e, %s : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %ph = tilus.cast %p : !tilus.reg<1x256xf32> to !tilus.reg<1x256xf16>
    tilus.store_global %ph, %gy[%row, %k] : !tilus.reg<1x256xf16>, !tilus.global<?x8192xf16>
  }
}
