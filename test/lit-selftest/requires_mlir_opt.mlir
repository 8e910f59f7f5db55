// Only runs where MLIR's `mlir-opt` is installed (otherwise reported as ignored).
//
// REQUIRES: mlir-opt
// RUN: mlir-opt %s | FileCheck %s

func.func @f(%arg0: i32) -> i32 {
  return %arg0 : i32
}

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[A:.*]]: i32) -> i32
// CHECK-NEXT: return %[[A]] : i32
