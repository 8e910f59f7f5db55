// tilus.shared_addr: custom form, generic form, and the round trip through the generic form.
// RUN: tilus-opt %s --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --split-input-file --print-op-generic | tilus-opt --split-input-file | FileCheck %s

// CHECK-LABEL: tilus.kernel @addr(
// CHECK:         %[[S:.*]] = tilus.shared_tensor : !tilus.shared<2x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[A:.*]] = tilus.shared_addr %[[S]] : !tilus.shared<2x128x64xf16, swizzle = 128B> -> i32
// CHECK-NEXT:    %[[V:.*]] = tilus.slice_shared %[[S]][%{{.*}}]
// CHECK-NEXT:    %{{.*}} = tilus.shared_addr %[[V]] : !tilus.shared<128x64xf16, swizzle = 128B> -> i32
// GENERIC: "tilus.shared_addr"(%{{.*}}) : (!tilus.shared<2x128x64xf16, swizzle = 128B>) -> i32
tilus.kernel @addr(%i: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<2x128x64xf16, swizzle = 128B>
  %a = tilus.shared_addr %s : !tilus.shared<2x128x64xf16, swizzle = 128B> -> i32
  %v = tilus.slice_shared %s[%i] : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
  %b = tilus.shared_addr %v : !tilus.shared<128x64xf16, swizzle = 128B> -> i32
}

// -----

// CHECK-LABEL: tilus.kernel @addr_of_transpose(
// CHECK:         tilus.shared_addr %{{.*}} : !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B> -> i32
tilus.kernel @addr_of_transpose() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %t = tilus.permute_shared %s [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
  %a = tilus.shared_addr %t : !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B> -> i32
}

// -----

// A reshape keeps the address of the first element (and the swizzle).
// CHECK-LABEL: tilus.kernel @addr_of_reshape(
// CHECK:         %[[R:.*]] = tilus.reshape_shared %{{.*}} : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
// CHECK-NEXT:    tilus.shared_addr %[[R]] : !tilus.shared<256x64xf16, swizzle = 128B> -> i32
// GENERIC: "tilus.reshape_shared"(%{{.*}}) : (!tilus.shared<2x128x64xf16, swizzle = 128B>) -> !tilus.shared<256x64xf16, swizzle = 128B>
tilus.kernel @addr_of_reshape() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<2x128x64xf16, swizzle = 128B>
  %r = tilus.reshape_shared %s : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
  %a = tilus.shared_addr %r : !tilus.shared<256x64xf16, swizzle = 128B> -> i32
}
