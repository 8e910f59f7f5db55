// Constant folding through the e-class analysis uses arith's own semantics: results wrap at
// the type's width, signed ops read two's complement, and undefined operations (division by
// zero, INT_MIN / -1, oversized shifts) are left alone.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat)' | FileCheck %s

// CHECK-LABEL: func.func @wraps(
// CHECK-DAG: %[[A:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[B:.*]] = arith.constant 1 : i8
// CHECK-DAG: %[[C:.*]] = arith.constant -2 : i8
// CHECK: return %[[A]], %[[B]], %[[C]] : i8, i8, i8
func.func @wraps() -> (i8, i8, i8) {
  %c127 = arith.constant 127 : i8
  %c1 = arith.constant 1 : i8
  %m1 = arith.constant -1 : i8
  %c2 = arith.constant 2 : i8
  %a = arith.addi %c127, %c1 : i8
  %b = arith.muli %m1, %m1 : i8
  // -7 divsi 4 rounds toward zero (-1), then -1 * 2 = -2.
  %cm7 = arith.constant -7 : i8
  %c4 = arith.constant 4 : i8
  %q = arith.divsi %cm7, %c4 : i8
  %c = arith.muli %q, %c2 : i8
  return %a, %b, %c : i8, i8, i8
}

// CHECK-LABEL: func.func @undefined_stays(
// CHECK: arith.divsi
// CHECK: arith.remui
// CHECK: arith.shli
func.func @undefined_stays(%x: i32) -> (i32, i32, i32) {
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %c40 = arith.constant 40 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.divsi %min, %m1 : i32
  %b = arith.remui %c1, %c0 : i32
  %c = arith.shli %c1, %c40 : i32
  return %a, %b, %c : i32, i32, i32
}

// Casts fold by their semantics: extsi of -16 is all ones above, extui is not, so their
// difference is -2^32.
// CHECK-LABEL: func.func @casts(
// CHECK-NEXT: %[[D:.*]] = arith.constant -4294967296 : i64
// CHECK-NEXT: return %[[D]] : i64
func.func @casts() -> i64 {
  %c = arith.constant -16 : i32
  %s = arith.extsi %c : i32 to i64
  %u = arith.extui %c : i32 to i64
  %d = arith.subi %s, %u : i64
  return %d : i64
}
