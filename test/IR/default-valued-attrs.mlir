// Default-valued properties (MLIR's DefaultValuedAttr): the parser materializes an absent one,
// so generic output carries it as mlir-opt's does; custom forms leave it out at its default and
// keep any other value.
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s

// GENERIC: "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}>
// GENERIC: "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<nsw>}>
// GENERIC: "arith.addf"(%arg1, %arg1) <{fastmath = #arith.fastmath<none>}>
// GENERIC: "arith.cmpf"(%arg1, %arg1) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}>
// CHECK:      %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT: %1 = arith.addi %arg0, %arg0 overflow<nsw> : i32
// CHECK-NEXT: %2 = arith.addf %arg1, %arg1 : f32
// CHECK-NEXT: %3 = arith.cmpf olt, %arg1, %arg1 : f32
func.func @f(%a: i32, %x: f32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a overflow<nsw> : i32
  %2 = arith.addf %x, %x : f32
  %3 = arith.cmpf olt, %x, %x : f32
  return
}
