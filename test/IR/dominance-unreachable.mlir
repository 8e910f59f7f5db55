// Dominance is not checked in blocks the entry does not reach, as in MLIR: such code never
// runs, and a pass that folds a branch to one side must not make the IR invalid. Uses in
// reachable blocks are still checked, and so are uses inside regions of ops in an unreachable
// block (against definitions in those regions). mlir-opt 22 reports the same errors and prints
// the valid split the same way.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=VALID

// A use before its definition, and a use of a value from a block that does not dominate it,
// both in unreachable blocks: the file is valid and prints back.
// VALID-LABEL: func.func @unreachable_uses
// VALID:       ^bb1:
// VALID-NEXT:    %0 = arith.addi %c1_i32, %c1_i32 : i32
// VALID-NEXT:    %c1_i32 = arith.constant 1 : i32
// VALID:       ^bb2:
// VALID-NEXT:    %1 = arith.addi %0, %c1_i32 : i32
func.func @unreachable_uses(%c: i1) -> i32 {
  %z = arith.constant 0 : i32
  return %z : i32
^bb1:
  %a = arith.addi %b, %b : i32
  %b = arith.constant 1 : i32
  cf.br ^bb2
^bb2:
  %s = arith.addi %a, %b : i32
  cf.br ^bb1
}

// -----

// The same uses in a reachable block are errors.
func.func @reachable_use_before_def() -> i32 {
  cf.br ^bb1
^bb1:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %a = arith.addi %b, %b : i32
  // expected-note@+1 {{operand defined here}}
  %b = arith.constant 1 : i32
  return %a : i32
}

// -----

// A value defined in an unreachable block dominates no reachable use.
func.func @reachable_use_of_unreachable_def(%c: i1) -> i32 {
  cf.br ^bb2
^bb1:
  // expected-note@+1 {{operand defined here}}
  %x = arith.constant 1 : i32
  cf.br ^bb2
^bb2:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  return %x : i32
}

// -----

// Inside a region of an op in an unreachable block, uses are checked within that region.
func.func @nested_in_unreachable(%n: index) {
  return
^bb1:
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{operand #0 does not dominate this use}}
    %a = arith.addi %j, %j : index
    // expected-note@+1 {{operand defined here}}
    %j = arith.addi %i, %i : index
  }
  cf.br ^bb1
}
