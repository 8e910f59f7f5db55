// scf-parallel-for-to-nested-fors{reductions=true} also rewrites loops with reductions, as
// convert-scf-to-cf does before branching: every loop of the nest carries the accumulators and
// the innermost body ends with the reduction applied to (accumulator, value).
// RUN: tilus-opt %s --scf-parallel-for-to-nested-fors=reductions=true | FileCheck %s
// RUN: tilus-opt %s --scf-parallel-for-to-nested-fors | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @sum
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[S:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK-NEXT:        arith.index_cast %[[J]]
// CHECK-NEXT:        %[[V:.*]] = arith.sitofp
// CHECK-NEXT:        %[[N:.*]] = arith.addf %[[B]], %[[V]] : f32
// CHECK-NEXT:        scf.yield %[[N]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
// KEEP-LABEL: func.func @sum
// KEEP:          scf.parallel
func.func @sum(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) init (%x) -> f32 {
    %k = arith.index_cast %j : index to i32
    %v = arith.sitofp %k : i32 to f32
    scf.reduce(%v : f32) {
    ^bb0(%p: f32, %q: f32):
      %m = arith.addf %p, %q : f32
      scf.reduce.return %m : f32
    }
  }
  return %r : f32
}
