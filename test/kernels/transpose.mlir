// A transpose without any layout: y = x^T for x [m, n] f16, in 64 x 64 tiles. The store goes
// through a transposed view of y (strides [1, m]: dimension 0 is contiguous), so the load wants
// vectors along dimension 1 and the store along dimension 0. infer-layouts keeps each access
// coalesced and inserts one layout.convert between them, which goes through shared memory:
// each thread stores its rows in 16-byte vectors and reads back 4 adjacent columns of each of
// its 8 rows (8 bytes a load, 8 loads instead of 32 2-byte ones) from a scratch whose 16-byte
// chunks are XOR-swizzled by row, so neither side has bank conflicts.
//
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s
// CHECK-LABEL: tilus.kernel @transpose
// CHECK: tilus.load_global {{.*}} -> !tilus.reg<64x64xf16, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 8)>
// CHECK: layout.convert {{.*}} to !tilus.reg<64x64xf16, layout = spatial(1, 4) * column_spatial(8, 4) * column_local(8, 4)>
// CHECK: tilus.store_global
// CHECK-LABEL: tilus.kernel @transpose_ref
//
// RUN: tilus-run %s --dump-ptx --kernel transpose | FileCheck %s --check-prefix=PTX
// PTX: ld.global.v4.b32
// PTX-COUNT-4: st.shared.v4.b32
// PTX-NOT: ld.shared.b16
// PTX-COUNT-8: ld.shared.v2.b32
// PTX-NOT: ld.shared
// PTX: st.global.v4.b32
// RUN: tilus-run %s --kernel transpose | FileCheck %s --check-prefix=INTERP
// INTERP: check y vs reference @transpose_ref: ok

tilus.kernel @transpose(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 64, d2 ceildiv 64)>)
    attributes {tilus.args = {m = 256 : i32, n = 192 : i32}, tilus.outputs = ["y"], tilus.reference = "transpose_ref", tilus.bytes = "4 * m * n"} {
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %c64 = arith.constant 64 : i32
  %i = arith.muli %by, %c64 : i32
  %j = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  // y [n, m] row-major, seen as an [m, n] tensor: element (a, b) at b * m + a.
  %gyt = tilus.global_view %y[%m, %n] strides[%m] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %t = tilus.load_global %gx[%i, %j] : !tilus.global<?x?xf16> -> !tilus.reg<64x64xf16>
  tilus.store_global %t, %gyt[%i, %j] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16, strides = [1, ?]>
}

// The reference: reads x through its transposed view and writes y's rows, one warp per row.
tilus.kernel @transpose_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (d3)>)
    attributes {tilus.args = {m = 256 : i32, n = 192 : i32}, tilus.outputs = ["y"]} {
  %r = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %gxt = tilus.global_view %x[%n, %m] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gy = tilus.global_view %y[%n, %m] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  scf.for %c = %c0 to %m step %c32 : i32 {
    %t = tilus.load_global %gxt[%r, %c] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<1x32xf16>
    tilus.store_global %t, %gy[%r, %c] : !tilus.reg<1x32xf16>, !tilus.global<?x?xf16>
  }
}
