// A layout.convert of an i1 tile (a mask) lowers: i1 has no memory type, so the conversion
// through the shared scratch moves it as i32 (0 or 1) and narrows it back (before:
// "memory accesses of 'i1' are not lowered"). Here the mask of rows with a positive sum is
// made in the layout of the row-major load of x and used by a `tilus.where` on a tile laid out
// for the transposed view of y, so infer-layouts converts the [64, 1] mask (the cheapest edge).
//
// RUN: tilus-opt %s --infer-layouts | FileCheck %s --check-prefix=INFER
// INFER-LABEL: tilus.kernel @mask_rows(
// INFER:       %[[M:.*]] = tilus.cmp gt
// INFER:       layout.convert %[[M]] : !tilus.reg<64x1xi1, layout = {{.*}}> to !tilus.reg<64x1xi1, layout =
// INFER-LABEL: tilus.kernel @mask_rows_ref(
// RUN: tilus-run %s --kernel mask_rows | FileCheck %s
// CHECK: check y vs reference @mask_rows_ref: ok
// RUN: tilus-run %s --kernel mask_rows --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:      selp.u32 [[W:%r[0-9]+]], 1, 0, %p{{[0-9]+}};
// PTX:      st.shared.b32 [%r{{[0-9]+}}{{.*}}], [[W]];
// PTX:      bar.sync
// PTX:      ld.shared.b32 [[R:%r[0-9]+]],
// PTX:      bar.sync
// PTX-NEXT: setp.ne.s32 %p{{[0-9]+}}, [[R]], 0;

tilus.kernel @mask_rows(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "mask_rows_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gyt = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x1xf32>
  %pos = tilus.cmp gt %s, %z : (!tilus.reg<64x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x1xi1>
  %u = tilus.load_global %gyt[%c0, %c0] : !tilus.global<64x64xf32, strides = [1, 64]> -> !tilus.reg<64x64xf32>
  %w = tilus.where %pos, %u, %z : (!tilus.reg<64x1xi1>, !tilus.reg<64x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %w, %gyt[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32, strides = [1, 64]>
}

// y[j, i] is kept where row i of x has a positive sum: the sums as a row vector over y.
tilus.kernel @mask_rows_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %s = tilus.reduce sum %t dim(1) : !tilus.reg<64x64xf32> -> !tilus.reg<64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %pos = tilus.cmp gt %s, %z : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xi1>
  %v = tilus.load_global %gy[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %w = tilus.where %pos, %v, %z : (!tilus.reg<64xi1>, !tilus.reg<64x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %w, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}
