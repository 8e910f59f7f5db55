// mbarrier.addr: custom form, generic form, round trip, and the index check.
// RUN: tilus-opt %s --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --split-input-file --print-op-generic | tilus-opt --split-input-file | FileCheck %s

// CHECK-LABEL: tilus.kernel @addr(
// CHECK-SAME:      %[[I:[^:]*]]: i32)
// CHECK:         %[[B:.*]] = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
// CHECK-NEXT:    %{{.*}} = mbarrier.addr %[[B]][%[[I]] : i32] : !mbarrier.barriers<2> -> i32
// CHECK-NEXT:    %{{.*}} = mbarrier.addr %[[B]][%{{.*}} : index] : !mbarrier.barriers<2> -> i32
// GENERIC: "mbarrier.addr"(%{{.*}}, %{{.*}}) : (!mbarrier.barriers<2>, i32) -> i32
tilus.kernel @addr(%i: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %c1 = arith.constant 1 : index
  %b = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
  %a = mbarrier.addr %b[%i : i32] : !mbarrier.barriers<2> -> i32
  %c = mbarrier.addr %b[%c1 : index] : !mbarrier.barriers<2> -> i32
}
