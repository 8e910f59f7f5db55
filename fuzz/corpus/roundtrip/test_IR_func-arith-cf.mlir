// Custom forms of builtin, func, arith and cf print as MLIR prints them, and survive a trip through
// the generic form.
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @arith(%arg0: i32, %arg1: i32, %arg2: f32) -> i32 {
// CHECK-NEXT:    %c42_i32 = arith.constant 42 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %1 = arith.cmpi slt, %0, %c42_i32 : i32
// CHECK-NEXT:    %2 = arith.select %1, %0, %arg1 : i32
// CHECK-NEXT:    %3 = arith.mulf %arg2, %cst fastmath<fast> : f32
// CHECK-NEXT:    %4 = arith.fptosi %3 : f32 to i32
// CHECK-NEXT:    %5 = call @callee(%4) : (i32) -> i32
// CHECK-NEXT:    return %5 : i32
// GENERIC-LABEL: "func.func"() <{function_type = (i32, i32, f32) -> i32, sym_name = "arith"}> ({
// GENERIC:         "arith.constant"() <{value = 42 : i32}> : () -> i32
// GENERIC:         "arith.addi"({{.*}}) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.cmpi"({{.*}}) <{predicate = 2 : i64}> : (i32, i32) -> i1
func.func @arith(%a: i32, %b: i32, %x: f32) -> i32 {
  %c = arith.constant 42 : i32
  %t = arith.constant true
  %f = arith.constant 1.5 : f32
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.cmpi slt, %0, %c : i32
  %2 = arith.select %1, %0, %b : i32
  %3 = arith.mulf %x, %f fastmath<fast> : f32
  %4 = arith.fptosi %3 : f32 to i32
  %5 = func.call @callee(%4) : (i32) -> i32
  return %5 : i32
}

// CHECK-LABEL: func.func private @callee(i32) -> i32
func.func private @callee(i32) -> i32

// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
// CHECK-NEXT:  ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%0 : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    cf.br ^bb3(%c0_i32 : i32)
// CHECK-NEXT:  ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %1 : i32
// GENERIC: "cf.cond_br"({{.*}})[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
func.func @branches(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2:
  %z = arith.constant 0 : i32
  cf.br ^bb3(%z : i32)
^bb3(%r: i32):
  return %r : i32
}

// CHECK-LABEL: module @named attributes {tilus.target = "sm_90a"} {
// CHECK-NEXT:    func.func @multi(%arg0: i32) -> (i32, i32) attributes {foo} {
// CHECK-NEXT:      return %arg0, %arg0 : i32, i32
module @named attributes {tilus.target = "sm_90a"} {
  func.func @multi(%a: i32) -> (i32, i32) attributes {foo} {
    return %a, %a : i32, i32
  }
}
