// Canonicalization patterns of scf and cf: a constant scf.if condition keeps the taken region,
// a loop with no trips becomes its initial values, a constant cf.cond_br becomes a cf.br, a
// cond_br with identical edges becomes a cf.br, and a cf.br into a block with a single
// predecessor merges the two blocks. The last RUN group checks the output equals mlir-opt's.
// RUN: tilus-opt %s --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s
// REQUIRES: mlir-opt
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(canonicalize)' >%t.mlir-opt
// RUN: tilus-opt %s --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(canonicalize)' >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// CHECK-LABEL: func.func @if_true(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %0 : i32
func.func @if_true(%x: i32) -> i32 {
  %true = arith.constant true
  %r = scf.if %true -> (i32) {
    %a = arith.addi %x, %x : i32
    scf.yield %a : i32
  } else {
    %b = arith.muli %x, %x : i32
    scf.yield %b : i32
  }
  return %r : i32
}

// -----

// CHECK-LABEL: func.func @if_false_no_else(
// CHECK-NEXT:    return
func.func @if_false_no_else(%x: i32, %m: memref<i32>) {
  %false = arith.constant false
  scf.if %false {
    "test.store"(%x, %m) : (i32, memref<i32>) -> ()
  }
  return
}

// -----

// CHECK-LABEL: func.func @for_zero_trips(%arg0: f32) -> f32 {
// CHECK-NEXT:    return %arg0 : f32
func.func @for_zero_trips(%x: f32) -> f32 {
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c4 to %c2 step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %acc : f32
    scf.yield %y : f32
  }
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @cond_br_const(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
func.func @cond_br_const(%x: i32) -> i32 {
  %true = arith.constant true
  cf.cond_br %true, ^a(%x : i32), ^b
^a(%v: i32):
  return %v : i32
^b:
  %c = arith.constant 7 : i32
  return %c : i32
}

// -----

// CHECK-LABEL: func.func @cond_br_same(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    return %arg1 : i32
func.func @cond_br_same(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^a(%x : i32), ^a(%x : i32)
^a(%v: i32):
  return %v : i32
}
