// tilus.slice_register: a box of a register tile, in the registers that already hold it.
//
// @swap_boxes loads a [64, 256] tile in the wgmma accumulator's layout, takes its four
// [64, 64] column boxes and stores them in reverse order; @swap_boxes_ref does the same with
// four loads. The interpreter runs both on random data and compares y with the reference:
// RUN: tilus-run %s --kernel swap_boxes | FileCheck %s
// CHECK: check y vs reference @swap_boxes_ref: ok
//
// The slice moves no data: each box is the source's registers 16j..16j+15 (the layout keeps
// `column_local(2, 8)` of the source's `column_local(2, 32)`), so the lowered kernel has the
// load's and stores' instructions and nothing between them (no shuffle, no shared memory):
// RUN: tilus-run %s --kernel swap_boxes --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX-NOT: shfl.sync
// PTX-NOT: st.shared
// PTX: ret;
//
// Without layouts, infer-layouts lays the load out for its 16-byte accesses, which spreads the
// columns over the lanes: a 64-column box of that would cut across threads. So the load is
// converted once, to the boxes as outer register modes around the boxes' own layout, and each
// slice is then that layout's registers:
// RUN: tilus-run %s --kernel swap_boxes_no_layouts | FileCheck %s --check-prefix=NOLAYOUT
// NOLAYOUT: check y vs reference @swap_boxes_ref: ok
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts)' | FileCheck %s --check-prefix=INFER
// INFER-LABEL: tilus.kernel @swap_boxes_no_layouts
// INFER:      %[[T:.*]] = tilus.load_global
// INFER-NEXT: %[[C:.*]] = layout.convert %[[T]] : {{.*}} to !tilus.reg<64x256xf32, layout = [[L:.*]]>
// INFER-NOT:  layout.convert
// INFER:      tilus.slice_register %[[C]] [0, 0] : !tilus.reg<64x256xf32, layout = [[L]]> -> !tilus.reg<64x64xf32, layout =
// INFER-NOT:  layout.convert
// INFER-LABEL: tilus.kernel @swap_boxes_ref
//
// The verifier: the box must be inside the source, one offset per dimension, and the result's
// layout the source's restricted to the box; a box that cuts the threads' modes is refused.
// RUN: not tilus-opt %S/Inputs/slice-register-bad.mlir.txt --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: expects the box inside the source 64x256, but dim 1 spans [224, 288) of 256
// BAD: expects one offset per dimension of the source (64x256) and a result of rank 2, but found 1 offset and a result of rank 2
// BAD: cannot slice the source's layout: the box [0, 64) of dim 1 cuts a mode its threads are spread over
// BAD: expects the result layout to be the source's restricted to the box, 'spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)', but found
// BAD: expects source and result of one element type, but found 'f32' and 'f16'

#acc = affine_map<(d0, d1) -> (1)>

tilus.kernel @swap_boxes(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(4) blocks(#acc)
    attributes {tilus.outputs = ["y"], tilus.reference = "swap_boxes_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c192 = arith.constant 192 : i32
  %c256 = arith.constant 256 : i32
  %gx = tilus.global_view %x[%c64, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%c64, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<?x?xf32> -> !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
  %b0 = tilus.slice_register %t [0, 0] : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> -> !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  %b1 = tilus.slice_register %t [0, 64] : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> -> !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  %b2 = tilus.slice_register %t [0, 128] : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> -> !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  %b3 = tilus.slice_register %t [0, 192] : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> -> !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  tilus.store_global %b3, %gy[%c0, %c0] : !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
  tilus.store_global %b2, %gy[%c0, %c64] : !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
  tilus.store_global %b1, %gy[%c0, %c128] : !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
  tilus.store_global %b0, %gy[%c0, %c192] : !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
}

tilus.kernel @swap_boxes_no_layouts(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(4) blocks(#acc)
    attributes {tilus.outputs = ["y"], tilus.reference = "swap_boxes_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c192 = arith.constant 192 : i32
  %c256 = arith.constant 256 : i32
  %gx = tilus.global_view %x[%c64, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%c64, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<?x?xf32> -> !tilus.reg<64x256xf32>
  %b0 = tilus.slice_register %t [0, 0] : !tilus.reg<64x256xf32> -> !tilus.reg<64x64xf32>
  %b3 = tilus.slice_register %t [0, 192] : !tilus.reg<64x256xf32> -> !tilus.reg<64x64xf32>
  %b1 = tilus.slice_register %t [0, 64] : !tilus.reg<64x256xf32> -> !tilus.reg<64x64xf32>
  %b2 = tilus.slice_register %t [0, 128] : !tilus.reg<64x256xf32> -> !tilus.reg<64x64xf32>
  tilus.store_global %b3, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
  tilus.store_global %b2, %gy[%c0, %c64] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
  tilus.store_global %b1, %gy[%c0, %c128] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
  tilus.store_global %b0, %gy[%c0, %c192] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
}

tilus.kernel @swap_boxes_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(4) blocks(#acc) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c192 = arith.constant 192 : i32
  %c256 = arith.constant 256 : i32
  %gx = tilus.global_view %x[%c64, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%c64, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %b0 = tilus.load_global %gx[%c0, %c0] : !tilus.global<?x?xf32> -> !tilus.reg<64x64xf32>
  %b1 = tilus.load_global %gx[%c0, %c64] : !tilus.global<?x?xf32> -> !tilus.reg<64x64xf32>
  %b2 = tilus.load_global %gx[%c0, %c128] : !tilus.global<?x?xf32> -> !tilus.reg<64x64xf32>
  %b3 = tilus.load_global %gx[%c0, %c192] : !tilus.global<?x?xf32> -> !tilus.reg<64x64xf32>
  tilus.store_global %b3, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
  tilus.store_global %b2, %gy[%c0, %c64] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
  tilus.store_global %b1, %gy[%c0, %c128] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
  tilus.store_global %b0, %gy[%c0, %c192] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
}
