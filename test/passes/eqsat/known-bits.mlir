// Possibly-set bits: the range analysis keeps, besides an interval and trailing zeros, a mask
// of the bits a value may have, which shifts, masks and carry-free sums follow exactly. A
// thread index built as `(((t >> 5) << 5) + ((t >> 3) & 3)) << 6 | (t & 7) << 3` has bits
// 3..7 and 11..12 only: no interval shows the hole at bits 8..10, where the row offsets of a
// swizzled tile land. The disjoint-bit rules then see through `(a + c) & m`, `>>` and `^`:
//  * c = 512 (bit 9, which the swizzle mask 448 misses): the address is the first one plus
//    2 * 512;
//  * c = 256 (bit 8, which the mask reads): the swizzle term changes by a constant, the
//    element costs one xor of a shared value and adds;
//  * in @column, `b` has bits 0..2 and 9..12, so `b + 64` swizzles to `b + 64 + 8` and the
//    address is the first one plus 2 * 72, with no xor left at all.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: ptx.entry @row
// CHECK:         %[[P0:.*]] = arith.addi {{.*}}%arg0
// CHECK-NEXT:    ptx.inst "ld.shared.b16" [%[[P0]]]
// CHECK-NEXT:    %[[P2:.*]] = arith.addi %[[P0]], %c1024_i32
// CHECK-NEXT:    ptx.inst "ld.shared.b16" [%[[P2]]]
// CHECK:         ptx.inst "ld.shared.b16"
// CHECK-NEXT:    ptx.ret
ptx.entry @row(%p: i32) attributes {maxntid = 128 : i64, target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c256 = arith.constant 256 : i32
  %c448 = arith.constant 448 : i32
  %c512 = arith.constant 512 : i32
  %warp = arith.shrui %t, %c5 : i32
  %w32 = arith.shli %warp, %c5 : i32
  %q = arith.shrui %t, %c3 : i32
  %r = arith.andi %q, %c3 : i32
  %row = arith.addi %w32, %r : i32
  %row64 = arith.shli %row, %c6 : i32
  %col = arith.andi %t, %c7 : i32
  %col8 = arith.shli %col, %c3 : i32
  %a = arith.addi %row64, %col8 : i32

  %m0 = arith.andi %a, %c448 : i32
  %s0 = arith.shrui %m0, %c3 : i32
  %x0 = arith.xori %a, %s0 : i32
  %b0 = arith.shli %x0, %c1 : i32
  %p0 = arith.addi %p, %b0 : i32
  %v0 = ptx.inst "ld.shared.b16" [%p0] : (i32) -> f16

  %a2 = arith.addi %a, %c512 : i32
  %m2 = arith.andi %a2, %c448 : i32
  %s2 = arith.shrui %m2, %c3 : i32
  %x2 = arith.xori %a2, %s2 : i32
  %b2 = arith.shli %x2, %c1 : i32
  %p2 = arith.addi %p, %b2 : i32
  %v2 = ptx.inst "ld.shared.b16" [%p2] : (i32) -> f16

  %a1 = arith.addi %a, %c256 : i32
  %m1 = arith.andi %a1, %c448 : i32
  %s1 = arith.shrui %m1, %c3 : i32
  %x1 = arith.xori %a1, %s1 : i32
  %b1 = arith.shli %x1, %c1 : i32
  %p1 = arith.addi %p, %b1 : i32
  %v1 = ptx.inst "ld.shared.b16" [%p1] : (i32) -> f16
  ptx.ret
}

// CHECK-LABEL: ptx.entry @column
// CHECK:         %[[Q0:.*]] = arith.addi {{.*}}%arg0
// CHECK-NEXT:    ptx.inst "ld.shared.b16" [%[[Q0]]]
// CHECK-NEXT:    %[[Q1:.*]] = arith.addi %[[Q0]], %c144_i32
// CHECK-NEXT:    ptx.inst "ld.shared.b16" [%[[Q1]]]
// CHECK-NEXT:    ptx.ret
ptx.entry @column(%p: i32) attributes {maxntid = 128 : i64, target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c9 = arith.constant 9 : i32
  %c15 = arith.constant 15 : i32
  %c64 = arith.constant 64 : i32
  %c448 = arith.constant 448 : i32
  %hi = arith.shrui %t, %c4 : i32
  %lo = arith.andi %t, %c15 : i32
  %lo9 = arith.shli %lo, %c9 : i32
  %b = arith.addi %hi, %lo9 : i32

  %m0 = arith.andi %b, %c448 : i32
  %s0 = arith.shrui %m0, %c3 : i32
  %x0 = arith.xori %b, %s0 : i32
  %y0 = arith.shli %x0, %c1 : i32
  %p0 = arith.addi %p, %y0 : i32
  %v0 = ptx.inst "ld.shared.b16" [%p0] : (i32) -> f16

  %e = arith.addi %b, %c64 : i32
  %m1 = arith.andi %e, %c448 : i32
  %s1 = arith.shrui %m1, %c3 : i32
  %x1 = arith.xori %e, %s1 : i32
  %y1 = arith.shli %x1, %c1 : i32
  %p1 = arith.addi %p, %y1 : i32
  %v1 = ptx.inst "ld.shared.b16" [%p1] : (i32) -> f16
  ptx.ret
}
