// Kernel parameter facts: `tilus.range = array<i64: lo, hi>` and `tilus.divisibility = d` on an
// integer parameter say what the caller promises (as Triton's `tt.divisibility`). eqsat's range
// analysis seeds the parameter with them: here `n` is a multiple of 64 in [64, 65536], so
// `n % 64` and `n & 63` are 0 and `(n / 64) * 64` is `n`; `m` has no facts and keeps its mask.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize,cse)' | FileCheck %s
// CHECK-LABEL: ptx.entry @facts(%arg0: i32 {tilus.divisibility = 64 : i64, tilus.range = array<i64: 64, 65536>}, %arg1: i32)
// CHECK-NOT:     arith.remui
// CHECK-NOT:     arith.divui
// CHECK:         %[[M:.*]] = arith.andi %arg1, %c63_i32 : i32
// CHECK-NEXT:    ptx.inst "st.global.b32" [%c0_i32], %c0_i32
// CHECK-NEXT:    ptx.inst "st.global.b32" [%arg0], %[[M]]
// CHECK-NEXT:    ptx.ret
ptx.entry @facts(%n: i32 {tilus.divisibility = 64 : i64, tilus.range = array<i64: 64, 65536>}, %m: i32) attributes {maxntid = 128 : i64, target = "sm_90a"} {
  %c64 = arith.constant 64 : i32
  %c63 = arith.constant 63 : i32
  %r = arith.remui %n, %c64 : i32
  %a = arith.andi %n, %c63 : i32
  %d = arith.divui %n, %c64 : i32
  %q = arith.muli %d, %c64 : i32
  %r2 = arith.remui %m, %c64 : i32
  ptx.inst "st.global.b32" [%r], %a : (i32, i32) -> ()
  ptx.inst "st.global.b32" [%q], %r2 : (i32, i32) -> ()
  ptx.ret
}
//
// The kernel form, the lowering and tilus-run's check: test/run-cli/param-facts.mlir.
