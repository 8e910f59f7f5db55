// Side-effecting ops, region ops and block boundaries are the skeleton: nothing moves across
// them, values from outside the block are leaves, and a value is rebuilt just before the op
// that defined it. A block whose rewrite is not cheaper is left exactly as it was.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat)' | FileCheck %s

// The load's result is a leaf: v divui 4 after the load stays after it (as a shift).
// CHECK-LABEL: ptx.entry @after_load(
// CHECK: %[[V:.*]] = ptx.inst "ld.global.b32"
// CHECK: arith.shrui %[[V]]
// CHECK: ptx.inst "st.global.b32"
ptx.entry @after_load(%p: i64) attributes {target = "sm_90a"} {
  %v = ptx.inst "ld.global.b32" [%p] : (i64) -> i32
  %c4 = arith.constant 4 : i32
  %m = arith.divui %v, %c4 : i32
  ptx.inst "st.global.b32" [%p], %m : (i64, i32) -> ()
  ptx.ret
}

// Nothing to gain: the block is untouched (op order and names kept).
// CHECK-LABEL: func.func @nothing(
// CHECK-NEXT: %[[A:.*]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: %[[B:.*]] = arith.muli %[[A]], %arg1 : i32
// CHECK-NEXT: return %[[B]]
func.func @nothing(%x: i32, %y: i32) -> i32 {
  %a = arith.addi %x, %y : i32
  %b = arith.muli %a, %y : i32
  return %b : i32
}

// Float math is skeleton; its integer operands are still rewritten.
// CHECK-LABEL: func.func @mixed(
// CHECK-NOT: arith.remui
// CHECK: arith.andi
// CHECK: arith.sitofp
func.func @mixed(%x: i32) -> f32 {
  %c2 = arith.constant 2 : i32
  %m = arith.remui %x, %c2 : i32
  %f = arith.sitofp %m : i32 to f32
  return %f : f32
}
