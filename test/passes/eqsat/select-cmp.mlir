// select/cmp identities: a select of equal arms, a select whose condition is decided, a
// comparison of a value with itself, and select(a < b, a, b) as a minimum.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @same_arms(
// CHECK-SAME: %[[C:.*]]: i1, %[[X:.*]]: i32
// CHECK-NEXT: return %[[X]] : i32
func.func @same_arms(%c: i1, %x: i32) -> i32 {
  %s = arith.select %c, %x, %x : i32
  return %s : i32
}

// CHECK-LABEL: func.func @self_compare(
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK: return %[[T]], %[[F]], %[[T]] : i1, i1, i1
func.func @self_compare(%x: i32) -> (i1, i1, i1) {
  %a = arith.cmpi sle, %x, %x : i32
  %b = arith.cmpi ne, %x, %x : i32
  %c = arith.cmpi uge, %x, %x : i32
  return %a, %b, %c : i1, i1, i1
}

// CHECK-LABEL: func.func @decided(
// CHECK-SAME: %[[X:.*]]: i32, %[[Y:.*]]: i32
// CHECK-NEXT: return %[[Y]] : i32
func.func @decided(%x: i32, %y: i32) -> i32 {
  %mask = arith.constant 255 : i32
  %c256 = arith.constant 256 : i32
  %small = arith.andi %x, %mask : i32
  %big = arith.cmpi uge, %small, %c256 : i32
  %s = arith.select %big, %x, %y : i32
  return %s : i32
}

// CHECK-LABEL: func.func @min(
// CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32
// CHECK-NEXT: %[[M:.*]] = arith.minui %[[A]], %[[B]] : i32
// CHECK-NEXT: return %[[M]]
func.func @min(%a: i32, %b: i32) -> i32 {
  %lt = arith.cmpi ult, %a, %b : i32
  %s = arith.select %lt, %a, %b : i32
  return %s : i32
}
