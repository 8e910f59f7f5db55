// tilus.store_shared / load_shared through a view that splits the tile's columns: a [64, 128]
// register tile goes into a box-major buffer, two [64, 64] boxes one after another, through
// the buffer's permuted [64, 2, 64] view (column c to box c / 64, column c % 64), and comes back
// through the same view and through box 1 alone. The first kernel's layout keeps each thread's
// columns inside one box (the lowering's offset is a thread part plus a constant per register,
// and the stores go as 32-bit pairs); the second's threads own 32 consecutive columns, so the
// thread part crosses the box boundary and each element's offset is computed from its index.
// Both against a reference that copies directly, on the interpreter (in order and on a random
// schedule); store-shared-split-ptxas.mlir assembles their PTX.
//
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// CHECK-LABEL: tilus.kernel @split_boxes
// CHECK:         tilus.store_shared %{{.*}}, %{{.*}} : !tilus.reg<64x128xf16, layout = {{.*}}>, !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B>
// CHECK:         tilus.load_shared %{{.*}} : !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B> -> !tilus.reg<64x128xf16, layout = {{.*}}>
// RUN: tilus-run %s --kernel split_boxes | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --kernel split_boxes --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --kernel split_across | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --kernel split_across --schedule random --seed 4 | FileCheck %s --check-prefix=INTERP
// INTERP-DAG: check y vs reference @split_ref: ok
// INTERP-DAG: check z vs reference @split_ref: ok

tilus.kernel @split_boxes(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 64)>)
    attributes {tilus.args = {m = 128 : i32}, tilus.outputs = ["y", "z"], tilus.reference = "split_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %bx = tilus.block_id x
  %row = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%m, %c128] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %c128] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gz = tilus.global_view %z[%m, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %t = tilus.load_global %gx[%row, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x128xf16, layout = spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  %buf = tilus.shared_tensor : !tilus.shared<2x64x64xf16, swizzle = 128B>
  %v = tilus.permute_shared %buf [1, 0, 2] : !tilus.shared<2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B>
  tilus.store_shared %t, %v : !tilus.reg<64x128xf16, layout = spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B>
  threadgroup.sync
  %u = tilus.load_shared %v : !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B> -> !tilus.reg<64x128xf16, layout = spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  %b1 = tilus.slice_shared %buf[%c1] : !tilus.shared<2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
  %w = tilus.load_shared %b1 : !tilus.shared<64x64xf16, swizzle = 128B> -> !tilus.reg<64x64xf16>
  tilus.store_global %u, %gy[%row, %c0] : !tilus.reg<64x128xf16, layout = spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
  tilus.store_global %w, %gz[%row, %c0] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<2x64x64xf16, swizzle = 128B>
}

tilus.kernel @split_across(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 64)>)
    attributes {tilus.args = {m = 128 : i32}, tilus.outputs = ["y", "z"], tilus.reference = "split_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %bx = tilus.block_id x
  %row = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%m, %c128] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %c128] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gz = tilus.global_view %z[%m, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %t = tilus.load_global %gx[%row, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x128xf16, layout = spatial(32, 4) * local(2, 32)>
  %buf = tilus.shared_tensor : !tilus.shared<2x64x64xf16, swizzle = 128B>
  %v = tilus.permute_shared %buf [1, 0, 2] : !tilus.shared<2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B>
  tilus.store_shared %t, %v : !tilus.reg<64x128xf16, layout = spatial(32, 4) * local(2, 32)>, !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B>
  threadgroup.sync
  %u = tilus.load_shared %v : !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B> -> !tilus.reg<64x128xf16, layout = spatial(32, 4) * local(2, 32)>
  %b1 = tilus.slice_shared %buf[%c1] : !tilus.shared<2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
  %w = tilus.load_shared %b1 : !tilus.shared<64x64xf16, swizzle = 128B> -> !tilus.reg<64x64xf16>
  tilus.store_global %u, %gy[%row, %c0] : !tilus.reg<64x128xf16, layout = spatial(32, 4) * local(2, 32)>, !tilus.global<?x?xf16>
  tilus.store_global %w, %gz[%row, %c0] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<2x64x64xf16, swizzle = 128B>
}

tilus.kernel @split_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 64)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %bx = tilus.block_id x
  %row = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%m, %c128] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %c128] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gz = tilus.global_view %z[%m, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %t = tilus.load_global %gx[%row, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x128xf16>
  tilus.store_global %t, %gy[%row, %c0] : !tilus.reg<64x128xf16>, !tilus.global<?x?xf16>
  %w = tilus.load_global %gx[%row, %c64] : !tilus.global<?x?xf16> -> !tilus.reg<64x64xf16>
  tilus.store_global %w, %gz[%row, %c0] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
}
