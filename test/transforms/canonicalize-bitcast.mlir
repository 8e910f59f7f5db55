// arith.bitcast folds as MLIR's canonicalize folds it: a bitcast of a bitcast reads the first
// operand (and is it when the types match), and a scalar constant is reinterpreted. The output
// is compared with mlir-opt's on the same input (printed again by mlir-opt).
// REQUIRES: mlir-opt

// RUN: mlir-opt %s --canonicalize > %t.mlir-opt
// RUN: tilus-opt %s --canonicalize | mlir-opt > %t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt
// RUN: tilus-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @bitcasts
// CHECK-DAG:     %[[I:.*]] = arith.constant -1071644672 : i32
// CHECK-DAG:     %[[F:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[H:.*]] = arith.constant 0x7C00 : f16
// CHECK:         %[[B:.*]] = arith.bitcast %arg1 : i16 to bf16
// CHECK:         return %arg0, %[[B]], %[[F]], %[[I]], %[[H]]
func.func @bitcasts(%x: i32, %y: i16) -> (i32, bf16, f32, i32, f16) {
  %a = arith.bitcast %x : i32 to f32
  %b = arith.bitcast %a : f32 to i32
  %c = arith.bitcast %y : i16 to f16
  %d = arith.bitcast %c : f16 to bf16
  %k = arith.constant 1065353216 : i32
  %e = arith.bitcast %k : i32 to f32
  %g = arith.constant -2.5 : f32
  %h = arith.bitcast %g : f32 to i32
  %inf = arith.constant 31744 : i16
  %j = arith.bitcast %inf : i16 to f16
  return %b, %d, %e, %h, %j : i32, bf16, f32, i32, f16
}
