// Strength reduction: unsigned division and remainder by powers of two become shifts and
// masks (multiplies by powers of two are in the e-graph as shifts too; costs.mlir shows the
// cost model choosing between them). Signed division by a power of two is
// NOT a shift unless the dividend is known non-negative: -7 divsi 4 is -1 but -7 >> 2 is -2.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat)' | FileCheck %s

// CHECK-LABEL: func.func @pow2(
// CHECK-SAME: %[[X:.*]]: i32
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
// CHECK-DAG: %[[D:.*]] = arith.shrui %[[X]], %[[C3]] : i32
// CHECK-DAG: %[[R:.*]] = arith.andi %[[X]], %[[C7]] : i32
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: return %[[D]], %[[R]]
func.func @pow2(%x: i32) -> (i32, i32) {
  %c8 = arith.constant 8 : i32
  %d = arith.divui %x, %c8 : i32
  %r = arith.remui %x, %c8 : i32
  return %d, %r : i32, i32
}

// CHECK-LABEL: func.func @signed_unknown_sign(
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK-NOT: arith.shrui
func.func @signed_unknown_sign(%x: i32) -> (i32, i32) {
  %c4 = arith.constant 4 : i32
  %d = arith.divsi %x, %c4 : i32
  %r = arith.remsi %x, %c4 : i32
  return %d, %r : i32, i32
}

// A value masked to 12 bits is non-negative, so its signed division is a shift.
// CHECK-LABEL: func.func @signed_nonneg(
// CHECK-NOT: arith.divsi
// CHECK: arith.shrui
func.func @signed_nonneg(%x: i32) -> i32 {
  %mask = arith.constant 4095 : i32
  %c4 = arith.constant 4 : i32
  %y = arith.andi %x, %mask : i32
  %d = arith.divsi %y, %c4 : i32
  return %d : i32
}

// Strided addresses share their prefix: b + s*65 is (b + s*64) + s when b + s*64 exists.
// CHECK-LABEL: func.func @strided(
// CHECK-SAME: %[[B:.*]]: i64, %[[S:.*]]: i64
// CHECK: %[[SH:.*]] = arith.shli %[[S]]
// CHECK: %[[B64:.*]] = arith.addi %[[SH]], %[[B]] : i64
// CHECK: %[[B65:.*]] = arith.addi %[[S]], %[[B64]] : i64
// CHECK-NOT: arith.muli
// CHECK: return %[[B64]], %[[B65]]
func.func @strided(%b: i64, %s: i64) -> (i64, i64) {
  %c6 = arith.constant 6 : i64
  %c65 = arith.constant 65 : i64
  %m = arith.shli %s, %c6 : i64
  %a = arith.addi %b, %m : i64
  %n = arith.muli %s, %c65 : i64
  %a2 = arith.addi %b, %n : i64
  return %a, %a2 : i64, i64
}
