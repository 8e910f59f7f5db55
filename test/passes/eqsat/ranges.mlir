// Range-aware rules. Facts come from the kernel's thread count (maxntid), the lane id,
// loop bounds and constants; comparisons they decide fold, and mixed-radix index arithmetic
// collapses: (x*c + y) divui c is x and remui c is y when 0 <= y < c and nothing wraps.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize)' | FileCheck %s

// tid.x < 128: tid + 7 < 4096 always holds, so the guard is the other condition alone.
// CHECK-LABEL: ptx.entry @guard(
// CHECK: %[[C:.*]] = arith.cmpi ne, %arg2, %c0_i32
// CHECK-NOT: arith.cmpi
// CHECK: %[[S:.*]] = arith.select %[[C]], %arg1, %c0_i32
// CHECK: ptx.inst "st.global.b32" [%arg0], %[[S]]
ptx.entry @guard(%p: i64, %v: i32, %n: i32) attributes {maxntid = 128 : i64, target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi ne, %n, %c0 : i32
  %c7 = arith.constant 7 : i32
  %c4096 = arith.constant 4096 : i32
  %a = arith.addi %t, %c7 : i32
  %in = arith.cmpi ult, %a, %c4096 : i32
  %g = arith.andi %c, %in : i1
  %s = arith.select %g, %v, %c0 : i32
  ptx.inst "st.global.b32" [%p], %s : (i64, i32) -> ()
  ptx.ret
}

// (lane*8 + warp) / 8 and % 8 with lane < 32 and warp < 8: the division and remainder go.
// CHECK-LABEL: ptx.entry @mixed_radix(
// CHECK-DAG: %[[L:.*]] = ptx.special laneid : i32
// CHECK-DAG: %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: ptx.inst "st.global.b32" [%arg0], %[[L]]
ptx.entry @mixed_radix(%p: i64, %q: i64) attributes {maxntid = 256 : i64, target = "sm_90a"} {
  %l = ptx.special laneid : i32
  %t = ptx.special tid.x : i32
  %c5 = arith.constant 5 : i32
  %c8 = arith.constant 8 : i32
  %w = arith.shrui %t, %c5 : i32
  %m = arith.muli %l, %c8 : i32
  %x = arith.addi %m, %w : i32
  %d = arith.divui %x, %c8 : i32
  %r = arith.remui %x, %c8 : i32
  ptx.inst "st.global.b32" [%p], %d : (i64, i32) -> ()
  ptx.inst "st.global.b32" [%q], %r : (i64, i32) -> ()
  ptx.ret
}

// Without a bound on y the division stays.
// CHECK-LABEL: func.func @unbounded(
// CHECK: arith.divui
func.func @unbounded(%x: i32, %y: i32) -> i32 {
  %c10 = arith.constant 10 : i32
  %m = arith.muli %x, %c10 : i32
  %a = arith.addi %m, %y : i32
  %d = arith.divui %a, %c10 : i32
  return %d : i32
}

// The induction variable of scf.for %i = 0 to 16 is below 16: i remui 16 is i, and i < 16 is
// true.
// CHECK-LABEL: func.func @loop(
// CHECK: scf.for %[[I:.*]] = {{.*}} {
// CHECK-NEXT: func.call @use(%[[I]], %true)
func.func private @use(i32, i1)
func.func @loop() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  scf.for %i = %c0 to %c16 step %c1 : i32 {
    %r = arith.remui %i, %c16 : i32
    %lt = arith.cmpi slt, %i, %c16 : i32
    func.call @use(%r, %lt) : (i32, i1) -> ()
  }
  return
}
