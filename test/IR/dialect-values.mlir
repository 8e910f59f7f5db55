// Registered dialect types and attributes are values, not text: two spellings of one type or
// attribute are one uniqued value. So CSE merges ops that differ only in how a type or attribute
// was spelled, and everything prints in one canonical spelling, which for `#arith.*` is the one
// `mlir-opt` 22 prints (`nsw, nuw` in that order; fastmath flags in bit order joined by `,`;
// all seven as `fast`). Dialects nobody registered keep their text as written.
//
// RUN: tilus-opt %s --allow-unregistered-dialect --cse | FileCheck %s
// RUN: tilus-opt %s --allow-unregistered-dialect --cse | tilus-opt --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --allow-unregistered-dialect --cse --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @overflow
// CHECK-NEXT:    %[[X:.*]] = arith.addi %arg0, %arg0 overflow<nsw, nuw> : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %arg0, %arg0 overflow<nuw> : i32
// CHECK-NEXT:    return %[[X]], %[[X]], %[[Y]] : i32, i32, i32
// GENERIC-LABEL: sym_name = "overflow"
// GENERIC:       "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<nsw, nuw>}>
// GENERIC-NEXT:  "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<nuw>}>
func.func @overflow(%a: i32) -> (i32, i32, i32) {
  %0 = arith.addi %a, %a overflow<nuw, nsw> : i32
  %1 = arith.addi %a, %a overflow<nsw,nuw> : i32
  %2 = arith.addi %a, %a overflow< nuw > : i32
  return %0, %1, %2 : i32, i32, i32
}

// CHECK-LABEL: func.func @fastmath
// CHECK-NEXT:    %[[X:.*]] = arith.addf %arg0, %arg0 fastmath<nnan,contract> : f32
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %arg0, %arg0 fastmath<fast> : f32
// CHECK-NEXT:    return %[[X]], %[[X]], %[[Y]], %[[Y]] : f32, f32, f32, f32
func.func @fastmath(%a: f32) -> (f32, f32, f32, f32) {
  %0 = arith.addf %a, %a fastmath<contract,nnan> : f32
  %1 = arith.addf %a, %a fastmath<nnan, contract> : f32
  %2 = arith.mulf %a, %a fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  %3 = arith.mulf %a, %a fastmath<fast> : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// A `none` default is left out of the custom form whichever way it was written.
// CHECK-LABEL: func.func @defaults
// CHECK-NEXT:    %[[X:.*]] = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:    return %[[X]], %[[X]] : f32, f32
func.func @defaults(%a: f32) -> (f32, f32) {
  %0 = arith.addf %a, %a fastmath<none> : f32
  %1 = arith.addf %a, %a : f32
  return %0, %1 : f32, f32
}

// CHECK-LABEL: func.func @tensor_types
// CHECK-SAME:    (%arg0: !tilus.shared<128x64xf16, swizzle = 128B>, %arg1: !tilus.shared<128x64xf16, swizzle = 128B>, %arg2: !tilus.global<?x64xf16, strides = [?, 1]>, %arg3: !mbarrier.barriers<2>)
func.func @tensor_types(%a: !tilus.shared<128x64xf16,swizzle=128B>,
                        %b: !tilus.shared< 128x64xf16 , swizzle = 128B >,
                        %g: !tilus.global<?x64xf16,strides=[?,1]>,
                        %m: !mbarrier.barriers< 2 >) {
  return
}

// Register tensors whose layouts are spelled differently but map elements to threads the same
// way have one type, so the two splats are one.
// CHECK-LABEL: func.func @layouts
// CHECK-NEXT:    %[[X:.*]] = tilus.register_tensor init(%arg0 : f32) : !tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
// CHECK-NEXT:    return %[[X]], %[[X]]
func.func @layouts(%c: f32) -> (!tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>) {
  %0 = tilus.register_tensor init(%c : f32) : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  %1 = tilus.register_tensor init(%c : f32) : !tilus.reg<64x16xf32,layout=spatial(4,1)*column_local(2,2)*spatial(8,4)*local(1,2)>
  return %0, %1 : !tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
}

// Dense arrays hold typed elements: `0x10` and `16` are one element, printed as MLIR does.
// CHECK-LABEL: func.func @arrays
// CHECK-NEXT:    "test.use"() {a = array<i8: 16, -1>, b = array<i8: 16, -1>, c = array<f32: 1.500000e+00, 0x7FC00000>} : () -> ()
func.func @arrays() {
  "test.use"() {a = array<i8: 0x10, 255>, b = array<i8: 16, -1>, c = array<f32: 1.5, 0x7FC00000>} : () -> ()
  return
}

// Unregistered dialects keep their bodies as written.
// CHECK-LABEL: func.func @unregistered
// CHECK-NEXT:    "test.use"() {a = #foo.flags<b,a>, b = #foo.flags<a, b>} : () -> ()
func.func @unregistered() {
  "test.use"() {a = #foo.flags<b,a>, b = #foo.flags<a, b>} : () -> ()
  return
}
