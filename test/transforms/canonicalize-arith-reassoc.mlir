// The arith reassociation patterns (constant chains through addi/subi/muli, x + y * -1, and
// the redundant selects) give the same IR as mlir-opt's canonicalize.
// REQUIRES: mlir-opt
// RUN: mlir-opt %s --pass-pipeline='builtin.module(canonicalize)' >%t.mlir-opt
// RUN: tilus-opt %s --pass-pipeline='builtin.module(canonicalize)' >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

func.func @f(%x: i32, %y: i32, %p: i1, %a: i32, %b: i32, %c: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %m1 = arith.constant -1 : i32
  %t = arith.constant true
  %0 = arith.addi %x, %c3 overflow<nsw> : i32
  %r0 = arith.addi %0, %c5 overflow<nsw> : i32
  %1 = arith.subi %x, %c3 : i32
  %r1 = arith.addi %1, %c5 : i32
  %2 = arith.subi %c3, %x : i32
  %r2 = arith.addi %2, %c5 : i32
  %3 = arith.muli %x, %c3 : i32
  %r3 = arith.muli %3, %c5 : i32
  %4 = arith.addi %y, %c3 overflow<nuw> : i32
  %r4 = arith.subi %4, %c5 overflow<nuw> : i32
  %5 = arith.addi %y, %c3 : i32
  %r5 = arith.subi %c5, %5 : i32
  %6 = arith.subi %y, %c3 : i32
  %r6 = arith.subi %6, %c5 : i32
  %7 = arith.subi %c3, %y : i32
  %r7 = arith.subi %7, %c5 : i32
  %8 = arith.subi %a, %c3 : i32
  %r8 = arith.subi %c5, %8 : i32
  %9 = arith.subi %c3, %a : i32
  %r9 = arith.subi %c5, %9 : i32
  %10 = arith.muli %b, %m1 : i32
  %r10 = arith.addi %a, %10 : i32
  %11 = arith.muli %c, %m1 : i32
  %r11 = arith.addi %11, %b : i32
  %s1 = arith.select %p, %a, %b : i32
  %r12 = arith.select %p, %c, %s1 : i32
  %s2 = arith.select %p, %a, %b : i32
  %r13 = arith.select %p, %s2, %c : i32
  %r14 = arith.xori %a, %a : i32
  %r15 = arith.ori %a, %c : i32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}
