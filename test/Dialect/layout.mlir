// layout.convert in custom and generic form, and its folds; the generic form is read back by
// tilus-opt and by mlir-opt.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// A wgmma accumulator redistributed row-wise for an epilogue, inside its warpgroup.
// CHECK-LABEL: tilus.kernel @epilogue
// CHECK:         %{{.*}} = layout.convert %{{.*}} : !tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x16xf32, layout = spatial(64, 2) * local(1, 8)>
// GENERIC-LABEL: "tilus.kernel"
// GENERIC:         %{{.*}} = "layout.convert"(%{{.*}}) : (!tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>) -> !tilus.reg<64x16xf32, layout = spatial(64, 2) * local(1, 8)>
tilus.kernel @epilogue() warps(5) blocks(affine_map<() -> (1)>) {
  threadgroup.warp_group warps(0, 4) {
    %acc = tilus.register_tensor : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
    %rows = layout.convert %acc : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x16xf32, layout = spatial(64, 2) * local(1, 8)>
  }
}

// Folds: a convert to the same type is its operand; a convert of a convert converts the
// original value (and vanishes when that already has the final type).
// CHECK-LABEL: func.func @folds
// CHECK-NEXT:    %[[A:.*]] = layout.convert %arg0 : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>
// CHECK-NEXT:    %[[B:.*]] = layout.convert %arg0 : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)>
// CHECK-NEXT:    %[[C:.*]] = layout.convert %[[B]] : !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)> to !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>
// CHECK-NEXT:    %[[D:.*]] = layout.convert %[[B]] : !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)> to !tilus.reg<8x8xf16, layout = column_spatial(4, 8) * local(2, 1)>
// CHECK-NEXT:    return %[[A]], %[[C]], %[[D]]
// FOLD-LABEL: func.func @folds
// FOLD-NEXT:    %[[D:.*]] = layout.convert %arg0 : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = column_spatial(4, 8) * local(2, 1)>
// FOLD-NEXT:    return %arg0, %arg0, %[[D]]
func.func @folds(%x: !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>) -> (!tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>, !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>, !tilus.reg<8x8xf16, layout = column_spatial(4, 8) * local(2, 1)>) {
  %same = layout.convert %x : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>
  %t = layout.convert %x : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)>
  %back = layout.convert %t : !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)> to !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>
  %other = layout.convert %t : !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)> to !tilus.reg<8x8xf16, layout = column_spatial(4, 8) * local(2, 1)>
  return %same, %back, %other : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>, !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>, !tilus.reg<8x8xf16, layout = column_spatial(4, 8) * local(2, 1)>
}
