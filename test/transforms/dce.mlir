// dce erases pure ops whose results are unused, repeatedly, so whole dead chains go in one run.
// Calls, unregistered ops (their effects are unknown), terminators and symbols stay. MLIR has
// no pass of this name; its canonicalizer and CSE erase dead ops as a side effect.
// RUN: tilus-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(dce)' | FileCheck %s

// CHECK-LABEL: func.func private @g(i32) -> i32
// CHECK-NEXT:  func.func @f(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    %0 = call @g(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = "test.unknown"(%arg0) : (i32) -> i32
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @unused_but_kept() {
func.func private @g(i32) -> i32
func.func @f(%x: i32, %b: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  %m = arith.muli %a, %a : i32
  %s = arith.select %b, %m, %x : i32
  %call = func.call @g(%x) : (i32) -> i32
  %u = "test.unknown"(%x) : (i32) -> i32
  cf.br ^bb1
^bb1:
  %late = arith.subi %x, %x : i32
  return %x : i32
}
// Symbols are not dead code here (symbol-dce decides about them).
func.func private @unused_but_kept() {
  return
}
