// Column sums without any layout: out[j] = sum_i x[i, j], f16 in, f32 out. A block owns 256
// columns and walks the rows 32 at a time, accumulating in registers; the one reduction at the
// end runs over the rows, which the 4 warps split, so it folds in the thread (8 rows each),
// then across the warps through the shared scratch.
//
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s
// CHECK-LABEL: tilus.kernel @column_sum
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<32x256xf16, layout = spatial(4, 32) * local(8, 8)>
// CHECK: tilus.reduce sum {{.*}} dim(0) : {{.*}} -> !tilus.reg<256xf32, layout = replicate(4) * spatial(32) * local(8)>
// CHECK-NOT: layout.convert
// CHECK-LABEL: tilus.kernel @column_sum_ref
//
// RUN: tilus-run %s --dump-ptx --kernel column_sum | FileCheck %s --check-prefix=PTX
// PTX: ld.global.v4.b32
// PTX: bar.sync
// PTX: st.global.v4.f32
// RUN: tilus-run %s --kernel column_sum | FileCheck %s --check-prefix=INTERP
// INTERP: check out vs reference @column_sum_ref: ok

tilus.kernel @column_sum(%x: !tilus.ptr<f16>, %out: !tilus.ptr<f32>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 256)>)
    attributes {tilus.args = {m = 256 : i32, n = 512 : i32}, tilus.outputs = ["out"], tilus.reference = "column_sum_ref", tilus.bytes = "2 * m * n + 4 * n"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %col = arith.muli %bx, %c256 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %go = tilus.global_view %out[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x256xf32>
  %acc = scf.for %i = %c0 to %m step %c32 iter_args(%s = %z) -> (!tilus.reg<32x256xf32>) : i32 {
    %t = tilus.load_global %gx[%i, %col] : !tilus.global<?x?xf16> -> !tilus.reg<32x256xf16>
    %tf = tilus.cast %t : !tilus.reg<32x256xf16> to !tilus.reg<32x256xf32>
    %s2 = tilus.add %s, %tf : (!tilus.reg<32x256xf32>, !tilus.reg<32x256xf32>) -> !tilus.reg<32x256xf32>
    scf.yield %s2 : !tilus.reg<32x256xf32>
  }
  %r = tilus.reduce sum %acc dim(0) : !tilus.reg<32x256xf32> -> !tilus.reg<256xf32>
  tilus.store_global %r, %go[%col] : !tilus.reg<256xf32>, !tilus.global<?xf32>
}

// The reference: one warp per 32 columns, a row at a time.
tilus.kernel @column_sum_ref(%x: !tilus.ptr<f16>, %out: !tilus.ptr<f32>, %m: i32, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 32)>)
    attributes {tilus.args = {m = 256 : i32, n = 512 : i32}, tilus.outputs = ["out"]} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %col = arith.muli %bx, %c32 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %go = tilus.global_view %out[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<32xf32>
  %acc = scf.for %i = %c0 to %m step %c1 iter_args(%s = %z) -> (!tilus.reg<32xf32>) : i32 {
    %t = tilus.load_global %gx[%i, %col] : !tilus.global<?x?xf16> -> !tilus.reg<1x32xf16>
    %tf = tilus.cast %t : !tilus.reg<1x32xf16> to !tilus.reg<1x32xf32>
    %row = tilus.reduce sum %tf dim(0) : !tilus.reg<1x32xf32> -> !tilus.reg<32xf32>
    %s2 = tilus.add %s, %row : (!tilus.reg<32xf32>, !tilus.reg<32xf32>) -> !tilus.reg<32xf32>
    scf.yield %s2 : !tilus.reg<32xf32>
  }
  tilus.store_global %acc, %go[%col] : !tilus.reg<32xf32>, !tilus.global<?xf32>
}
