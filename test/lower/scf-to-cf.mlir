// convert-scf-to-cf: loops and conditionals become blocks and branches (the blocks MLIR makes,
// in its order; scf-to-cf-mlir.mlir compares with mlir-opt itself).
// RUN: tilus-opt %s --convert-scf-to-cf | FileCheck %s

// CHECK-LABEL: func.func @loop
// CHECK-SAME:    (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[S:.*]]: index, %[[X:.*]]: f32)
// CHECK-NEXT:    cf.br ^bb1(%[[LB]], %[[X]] : index, f32)
// CHECK-NEXT:  ^bb1(%[[IV:.*]]: index, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[IV]], %[[UB]] : index
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT:    %[[N:.*]] = arith.addi %[[IV]], %[[S]] : index
// CHECK-NEXT:    cf.br ^bb1(%[[N]], %[[A]] : index, f32)
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    return %[[ACC]] : f32
func.func @loop(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) {
    %a = arith.addf %acc, %acc : f32
    scf.yield %a : f32
  }
  return %r : f32
}

// An unsigned loop compares with ult.
// CHECK-LABEL: func.func @unsigned_loop
// CHECK:         arith.cmpi ult, %{{.*}}, %arg1 : i32
func.func @unsigned_loop(%lb: i32, %ub: i32, %s: i32) {
  scf.for unsigned %i = %lb to %ub step %s : i32 {
  }
  return
}

// CHECK-LABEL: func.func @if_else
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %[[M:.*]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%[[M]] : i32)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    cf.br ^bb3(%arg1 : i32)
// CHECK-NEXT:  ^bb3(%[[R:.*]]: i32):
// CHECK-NEXT:    cf.br ^bb4
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    return %[[R]] : i32
func.func @if_else(%c: i1, %x: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %m = arith.muli %x, %x : i32
    scf.yield %m : i32
  } else {
    scf.yield %x : i32
  }
  return %r : i32
}

// Without results or else, the false edge goes to the rest of the block.
// CHECK-LABEL: func.func @if_then
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    cf.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    return
func.func @if_then(%c: i1, %x: i32) {
  scf.if %c {
    %m = arith.addi %x, %x : i32
  }
  return
}
