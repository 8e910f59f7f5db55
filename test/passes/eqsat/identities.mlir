// eqsat's algebraic identities: x+0, x*1, x-x, x&-1, x^x, shifts by 0, (x+y)-y. Each function
// returns what the identity leaves, and the ops it removed are gone.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @add_zero(
// CHECK-SAME: %[[X:.*]]: i32
// CHECK-NEXT: return %[[X]] : i32
func.func @add_zero(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %a, %c1 : i32
  return %b : i32
}

// CHECK-LABEL: func.func @self_cancel(
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT: return %[[Z]], %[[Z]] : i64, i64
func.func @self_cancel(%x: i64) -> (i64, i64) {
  %s = arith.subi %x, %x : i64
  %t = arith.xori %x, %x : i64
  return %s, %t : i64, i64
}

// CHECK-LABEL: func.func @masks_and_shifts(
// CHECK-SAME: %[[X:.*]]: i16
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]] : i16, i16, i16
func.func @masks_and_shifts(%x: i16) -> (i16, i16, i16) {
  %m = arith.constant -1 : i16
  %c0 = arith.constant 0 : i16
  %a = arith.andi %x, %m : i16
  %b = arith.shli %x, %c0 : i16
  %c = arith.ori %x, %x : i16
  return %a, %b, %c : i16, i16, i16
}

// CHECK-LABEL: func.func @add_sub(
// CHECK-SAME: %[[X:.*]]: index, %[[Y:.*]]: index
// CHECK-NEXT: return %[[X]] : index
func.func @add_sub(%x: index, %y: index) -> index {
  %a = arith.addi %x, %y : index
  %b = arith.subi %a, %y : index
  return %b : index
}
