// cse merges pure ops that compute the same thing (operands in any order for commutative ops)
// when one dominates the other, and erases ops already dead when visited. The CHECK lines are
// mlir-opt's output (MLIR 22) for the same input.
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(cse)' | FileCheck %s

// Commutative operands in either order are one expression; attributes and flags are part of
// it; the ops that only fed dead ones are dead too but visited before, so they stay.
// CHECK-LABEL: func.func @basic(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %2 = arith.addi %arg0, %arg1 {tag} : i32
// CHECK-NEXT:    %3 = arith.muli %0, %0 : i32
// CHECK-NEXT:    return %0, %0, %1, %2, %0 : i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @basic(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32) {
  %a = arith.addi %x, %y : i32
  %b = arith.addi %y, %x : i32
  %c = arith.addi %x, %y : i32
  %f = arith.addi %x, %y overflow<nsw> : i32
  %g = arith.addi %x, %y {tag} : i32
  %d = arith.muli %a, %a : i32
  %e = arith.muli %d, %d : i32
  return %b, %c, %f, %g, %a : i32, i32, i32, i32, i32
}

// -----

// Dominance: the entry block's expression serves both branches, but the two branches do not
// serve each other or the join block.
// CHECK-LABEL: func.func @dominance(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    %1 = arith.muli %0, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%1 : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    %2 = arith.muli %0, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%2 : i32)
// CHECK-NEXT:  ^bb3(%3: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    %4 = arith.muli %0, %arg1 : i32
// CHECK-NEXT:    %5 = arith.addi %3, %4 : i32
// CHECK-NEXT:    return %5 : i32
// CHECK-NEXT:  }
func.func @dominance(%c: i1, %x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = arith.addi %x, %x : i32
  %m1 = arith.muli %b, %x : i32
  cf.br ^bb3(%m1 : i32)
^bb2:
  %m2 = arith.muli %a, %x : i32
  cf.br ^bb3(%m2 : i32)
^bb3(%r: i32):
  %m3 = arith.muli %a, %x : i32
  %s = arith.addi %r, %m3 : i32
  return %s : i32
}

// -----

// Regions that are not isolated from above (scf.for, scf.if) see the expressions of the
// enclosing scopes, so the loop's x + x is the one computed before the loop. An unused scf.if
// whose branches are pure is dead (RecursiveMemoryEffects).
// CHECK-LABEL: func.func @s(%arg0: i32, %arg1: i1, %arg2: index) -> i32 {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %arg0) -> (i32) {
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      %4 = arith.addi %arg4, %0 : i32
// CHECK-NEXT:      %5 = arith.addi %4, %c7_i32 : i32
// CHECK-NEXT:      scf.yield %5 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = scf.if %arg1 -> (i32) {
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      %4 = arith.muli %0, %c7_i32 : i32
// CHECK-NEXT:      scf.yield %4 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg0 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %3 = arith.addi %1, %2 : i32
// CHECK-NEXT:    return %3 : i32
// CHECK-NEXT:  }
func.func @s(%x: i32, %b: i1, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.addi %x, %x : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %k = arith.constant 7 : i32
    %s = arith.addi %x, %x : i32
    %t = arith.addi %acc, %s : i32
    %u = arith.addi %t, %k : i32
    scf.yield %u : i32
  }
  %y = scf.if %b -> (i32) {
    %k2 = arith.constant 7 : i32
    %m = arith.muli %a, %k2 : i32
    scf.yield %m : i32
  } else {
    scf.yield %x : i32
  }
  %unused = scf.if %b -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %z = arith.addi %r, %y : i32
  return %z : i32
}

// -----

// Calls and unregistered ops may have side effects: never merged.
// CHECK-LABEL: func.func private @g(i32) -> i32
// CHECK-NEXT:  func.func @effects(%arg0: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = call @g(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = call @g(%arg0) : (i32) -> i32
// CHECK-NEXT:    %2 = "test.op"(%arg0) : (i32) -> i32
// CHECK-NEXT:    %3 = "test.op"(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %0, %1, %2, %3 : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func private @g(i32) -> i32
func.func @effects(%x: i32) -> (i32, i32, i32, i32) {
  %a = func.call @g(%x) : (i32) -> i32
  %b = func.call @g(%x) : (i32) -> i32
  %c = "test.op"(%x) : (i32) -> i32
  %d = "test.op"(%x) : (i32) -> i32
  return %a, %b, %c, %d : i32, i32, i32, i32
}
