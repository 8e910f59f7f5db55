// Low-bit rules: the low j bits of a sum depend only on the low j bits of its operands, so
// under a mask or an xor that reaches below bit j, an added constant counts only modulo 2^j
// and its higher bits pass through as an add, carries included. Here the swizzled address of
// element `base + 4104` in the epilogue's shared buffer, `base` built from the thread id of a
// 384-thread block (its warp part reaches bits 10..13, so `base + 4096` can carry through
// bit 12): the swizzle only reads `base + 8`, and the address is the one of `base + 8` plus
// 2 * 4096.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: ptx.entry @epilogue
// CHECK:         arith.xori
// CHECK-NOT:     arith.xori
// CHECK:         %[[P:.*]] = arith.addi %{{.*}}, %arg0
// CHECK-NEXT:    ptx.inst "st.shared.b32" [%[[P]]]
// CHECK-NEXT:    %[[Q:.*]] = arith.addi %[[P]], %c8192_i32
// CHECK-NEXT:    ptx.inst "st.shared.b32" [%[[Q]]]
// CHECK-NEXT:    ptx.ret
ptx.entry @epilogue(%p: i32) attributes {maxntid = 384 : i64, target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c448 = arith.constant 448 : i32
  %c1024 = arith.constant 1024 : i32
  %c4104 = arith.constant 4104 : i32
  %v = arith.constant 0 : i32
  %warp = arith.shrui %t, %c5 : i32
  %w1024 = arith.muli %warp, %c1024 : i32
  %q = arith.shrui %t, %c2 : i32
  %q7 = arith.andi %q, %c7 : i32
  %row = arith.muli %q7, %c64 : i32
  %l = arith.andi %t, %c3 : i32
  %col = arith.muli %l, %c2 : i32
  %wr = arith.addi %w1024, %row : i32
  %base = arith.addi %wr, %col : i32

  %a1 = arith.addi %base, %c8 : i32
  %m1 = arith.andi %a1, %c448 : i32
  %s1 = arith.shrui %m1, %c3 : i32
  %x1 = arith.xori %a1, %s1 : i32
  %b1 = arith.shli %x1, %c1 : i32
  %p1 = arith.addi %p, %b1 : i32
  ptx.inst "st.shared.b32" [%p1], %v : (i32, i32) -> ()

  %a2 = arith.addi %base, %c4104 : i32
  %m2 = arith.andi %a2, %c448 : i32
  %s2 = arith.shrui %m2, %c3 : i32
  %x2 = arith.xori %a2, %s2 : i32
  %b2 = arith.shli %x2, %c1 : i32
  %p2 = arith.addi %p, %b2 : i32
  ptx.inst "st.shared.b32" [%p2], %v : (i32, i32) -> ()
  ptx.ret
}
