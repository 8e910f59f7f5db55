// Disjoint-bit rules: when no bit can be set in both x and y, x + y is x | y, so a mask, a
// shift or an xor that y does not reach sees x alone. Here: the swizzled shared-memory address
// `p + ((a ^ ((a & 448) >> 3)) << 1)` of element `a = base + c`, with `base` built from the
// thread id as a multiple of 8 below 1024. For c = 1025 (bits 0 and 10) the swizzle of `base`
// is reused and the address is the first one plus 2 * 1025; for c = 64 (bit 6, which the
// swizzle reads) the sum can carry into the swizzled bits, and the address keeps its own xor.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: ptx.entry @swizzle
// CHECK:         arith.xori
// CHECK:         %[[P0:.*]] = arith.addi
// CHECK-NEXT:    ptx.inst "ld.shared.b16" [%[[P0]]]
// CHECK-NEXT:    %[[P1:.*]] = arith.addi %[[P0]], %c2050_i32
// CHECK-NEXT:    ptx.inst "ld.shared.b16" [%[[P1]]]
// CHECK:         arith.xori
// CHECK-NOT:     arith.xori
// CHECK:         ptx.ret
ptx.entry @swizzle(%p: i32) attributes {maxntid = 128 : i64, target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c64 = arith.constant 64 : i32
  %c448 = arith.constant 448 : i32
  %c1025 = arith.constant 1025 : i32
  %row = arith.shrui %t, %c3 : i32
  %col = arith.andi %t, %c7 : i32
  %col8 = arith.shli %col, %c3 : i32
  %row64 = arith.shli %row, %c6 : i32
  %base = arith.addi %row64, %col8 : i32

  %m0 = arith.andi %base, %c448 : i32
  %s0 = arith.shrui %m0, %c3 : i32
  %x0 = arith.xori %base, %s0 : i32
  %b0 = arith.shli %x0, %c1 : i32
  %p0 = arith.addi %p, %b0 : i32
  %v0 = ptx.inst "ld.shared.b16" [%p0] : (i32) -> f16

  %a1 = arith.addi %base, %c1025 : i32
  %m1 = arith.andi %a1, %c448 : i32
  %s1 = arith.shrui %m1, %c3 : i32
  %x1 = arith.xori %a1, %s1 : i32
  %b1 = arith.shli %x1, %c1 : i32
  %p1 = arith.addi %p, %b1 : i32
  %v1 = ptx.inst "ld.shared.b16" [%p1] : (i32) -> f16

  %a2 = arith.addi %base, %c64 : i32
  %m2 = arith.andi %a2, %c448 : i32
  %s2 = arith.shrui %m2, %c3 : i32
  %x2 = arith.xori %a2, %s2 : i32
  %b2 = arith.shli %x2, %c1 : i32
  %p2 = arith.addi %p, %b2 : i32
  %v2 = ptx.inst "ld.shared.b16" [%p2] : (i32) -> f16
  ptx.ret
}
