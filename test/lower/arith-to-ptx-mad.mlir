// convert-arith-to-ptx: an integer add of a multiply that nothing else uses becomes one
// `mad.lo` (16 and 32 bits); a multiply with another use, one in another block, and 64-bit
// arithmetic keep `mul.lo` + `add`.
// RUN: tilus-opt %s --convert-arith-to-ptx | FileCheck %s

// CHECK-LABEL: func.func @fused
func.func @fused(%a: i32, %b: i32, %s: i16, %t: i16) -> (i32, i32, i16) {
  // A constant factor is still an operand of the mad (the emitter prints it as a literal).
  // CHECK-NEXT: %[[C:.*]] = ptx.inst "mov.b32" 3 : () -> i32
  %c = arith.constant 3 : i32
  // CHECK-NEXT: %[[M:.*]] = ptx.inst "mad.lo.s32" %arg0, %[[C]], %arg1 : (i32, i32, i32) -> i32
  %0 = arith.muli %a, %c : i32
  %1 = arith.addi %0, %b : i32
  // The multiply on either side of the add.
  // CHECK-NEXT: ptx.inst "mad.lo.s32" %arg1, %arg1, %[[M]] : (i32, i32, i32) -> i32
  %2 = arith.muli %b, %b : i32
  %3 = arith.addi %1, %2 : i32
  // CHECK-NEXT: ptx.inst "mad.lo.s16" %arg2, %arg3, %arg2 : (i16, i16, i16) -> i16
  %4 = arith.muli %s, %t : i16
  %5 = arith.addi %4, %s : i16
  // CHECK-NEXT: return
  return %1, %3, %5 : i32, i32, i16
}

// CHECK-LABEL: func.func @kept
func.func @kept(%a: i32, %b: i32, %la: i64, %lb: i64, %p: i1) -> (i32, i32, i64, i32) {
  // Used twice: the product is computed once.
  // CHECK-NEXT: %[[M:.*]] = ptx.inst "mul.lo.s32" %arg0, %arg1
  // CHECK-NEXT: ptx.inst "add.s32" %[[M]], %arg1
  %0 = arith.muli %a, %b : i32
  %1 = arith.addi %0, %b : i32
  // 64 bits: a 64-bit multiply is several SASS instructions whether or not the add joins it.
  // CHECK-NEXT: %[[L:.*]] = ptx.inst "mul.lo.s64" %arg2, %arg3
  // CHECK-NEXT: ptx.inst "add.s64" %[[L]], %arg2
  %2 = arith.muli %la, %lb : i64
  %3 = arith.addi %2, %la : i64
  // CHECK-NEXT: %[[X:.*]] = ptx.inst "mul.lo.s32" %arg0, %arg0
  %4 = arith.muli %a, %a : i32
  // CHECK: ^bb1:
  // CHECK-NEXT: ptx.inst "add.s32" %[[X]], %arg1
  cf.br ^bb1
^bb1:
  %5 = arith.addi %4, %b : i32
  return %0, %1, %3, %5 : i32, i32, i64, i32
}
