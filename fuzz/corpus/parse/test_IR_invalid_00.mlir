// Verifier rules, one per split: each error must be reported with MLIR's wording at the op.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @dominance() -> i32 {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %1, %1 : i32
  // expected-note@+1 {{operand defined here}}
  %1 = arith.constant 1 : i32
  return %0 : i32
}

