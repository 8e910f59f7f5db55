// scf.for / scf.if / scf.yield: custom forms as MLIR prints them (implicit yields left out),
// the generic form, and the verifier's rules.
// RUN: tilus-opt %s --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --split-input-file --print-op-generic | tilus-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @loops(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
// CHECK-NEXT:    scf.for %arg4 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT:      %{{.*}} = arith.addi %arg4, %arg4 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %0 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3) -> (f32) {
// CHECK-NEXT:      %{{.*}} = arith.addf %arg5, %arg5 : f32
// CHECK-NEXT:      scf.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK:         scf.for unsigned %arg4 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
// CHECK-NEXT:    }
// GENERIC:       "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC-NEXT:  ^bb0(%{{.*}}: index):
// GENERIC:         "scf.yield"() : () -> ()
// GENERIC:       "scf.for"({{.*}}) <{unsignedCmp}> ({
func.func @loops(%lb: index, %ub: index, %st: index, %x: f32) -> f32 {
  scf.for %i = %lb to %ub step %st {
    %0 = arith.addi %i, %i : index
  }
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %x) -> (f32) {
    %1 = arith.addf %acc, %acc : f32
    scf.yield %1 : f32
  }
  %a = arith.constant 0 : i32
  %b = arith.constant 4 : i32
  %s = arith.constant 1 : i32
  scf.for unsigned %j = %a to %b step %s : i32 {
  }
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @conditionals(%arg0: i1, %arg1: f32) -> f32 {
// CHECK-NEXT:    %0 = scf.if %arg0 -> (f32) {
// CHECK-NEXT:      scf.yield %arg1 : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %{{.*}} = arith.negf %arg1 : f32
// CHECK-NEXT:      scf.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      %{{.*}} = arith.addf %arg1, %arg1 : f32
// CHECK-NEXT:    }
// GENERIC:       "scf.if"(%{{.*}}) ({
// GENERIC:       }, {
// GENERIC:       }) : (i1) -> f32
func.func @conditionals(%c: i1, %x: f32) -> f32 {
  %y = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    %n = arith.negf %x : f32
    scf.yield %n : f32
  }
  scf.if %c {
    %2 = arith.addf %x, %x : f32
  }
  return %y : f32
}
