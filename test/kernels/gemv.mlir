// GEMV without any layout: y[i] = sum_k a[i, k] * x[k], f16 in, f32 accumulation, f16 out.
// A block owns 8 rows and walks k in steps of 512; x's chunk is broadcast over the rows.
//
// infer-layouts puts a row's 512 columns in one warp (32 lanes x 16-byte vectors, twice), so
// the final reduction is in-thread plus shuffles; x's chunk is loaded replicated over the
// warps so the broadcast moves no data.
//
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s
// CHECK-LABEL: tilus.kernel @gemv
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<8x512xf16, layout = spatial(4, 1) * local(2, 2) * spatial(1, 32) * local(1, 8)>
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<512xf16, layout = local(2) * replicate(4) * spatial(32) * local(8)>
// CHECK: tilus.reduce sum {{.*}} dim(1) : {{.*}} -> !tilus.reg<8xf32, layout = spatial(4) * local(2) * replicate(32)>
// CHECK-NOT: layout.convert
// CHECK-LABEL: tilus.kernel @gemv_ref
//
// RUN: tilus-run %s --dump-ptx --kernel gemv | FileCheck %s --check-prefix=PTX
// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly
// RUN: tilus-run %s --kernel gemv | FileCheck %s --check-prefix=INTERP
// INTERP: check y vs reference @gemv_ref: ok

tilus.kernel @gemv(%a: !tilus.ptr<f16>, %x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3 ceildiv 8)>)
    attributes {tilus.args = {m = 64 : i32, k = 2048 : i32}, tilus.outputs = ["y"], tilus.reference = "gemv_ref", tilus.bytes = "2 * m * k + 2 * k + 2 * m"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c512 = arith.constant 512 : i32
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %bx, %c8 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gx = tilus.global_view %x[%k] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<8x512xf32>
  %acc = scf.for %kk = %c0 to %k step %c512 iter_args(%s = %z) -> (!tilus.reg<8x512xf32>) : i32 {
    %at = tilus.load_global %ga[%row, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<8x512xf16>
    %xt = tilus.load_global %gx[%kk] : !tilus.global<?xf16> -> !tilus.reg<512xf16>
    %af = tilus.cast %at : !tilus.reg<8x512xf16> to !tilus.reg<8x512xf32>
    %xf = tilus.cast %xt : !tilus.reg<512xf16> to !tilus.reg<512xf32>
    %p = tilus.mul %af, %xf : (!tilus.reg<8x512xf32>, !tilus.reg<512xf32>) -> !tilus.reg<8x512xf32>
    %s2 = tilus.add %s, %p : (!tilus.reg<8x512xf32>, !tilus.reg<8x512xf32>) -> !tilus.reg<8x512xf32>
    scf.yield %s2 : !tilus.reg<8x512xf32>
  }
  %r = tilus.reduce sum %acc dim(1) : !tilus.reg<8x512xf32> -> !tilus.reg<8xf32>
  %rh = tilus.cast %r : !tilus.reg<8xf32> to !tilus.reg<8xf16>
  tilus.store_global %rh, %gy[%row] : !tilus.reg<8xf16>, !tilus.global<?xf16>
}

// The reference: one warp per row, 32 columns a step.
tilus.kernel @gemv_ref(%a: !tilus.ptr<f16>, %x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %k: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3)>)
    attributes {tilus.args = {m = 64 : i32, k = 2048 : i32}, tilus.outputs = ["y"]} {
  %row = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gx = tilus.global_view %x[%k] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x32xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%s = %z) -> (!tilus.reg<1x32xf32>) : i32 {
    %at = tilus.load_global %ga[%row, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<1x32xf16>
    %xt = tilus.load_global %gx[%kk] : !tilus.global<?xf16> -> !tilus.reg<32xf16>
    %af = tilus.cast %at : !tilus.reg<1x32xf16> to !tilus.reg<1x32xf32>
    %xf = tilus.cast %xt : !tilus.reg<32xf16> to !tilus.reg<32xf32>
    %p = tilus.mul %af, %xf : (!tilus.reg<1x32xf32>, !tilus.reg<32xf32>) -> !tilus.reg<1x32xf32>
    %s2 = tilus.add %s, %p : (!tilus.reg<1x32xf32>, !tilus.reg<1x32xf32>) -> !tilus.reg<1x32xf32>
    scf.yield %s2 : !tilus.reg<1x32xf32>
  }
  %r = tilus.reduce sum %acc dim(1) : !tilus.reg<1x32xf32> -> !tilus.reg<1xf32>
  %rh = tilus.cast %r : !tilus.reg<1xf32> to !tilus.reg<1xf16>
  tilus.store_global %rh, %gy[%row] : !tilus.reg<1xf16>, !tilus.global<?xf16>
}
