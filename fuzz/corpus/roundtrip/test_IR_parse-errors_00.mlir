// Syntax errors, one per split, each reported at the offending token with its exact message.
// With --verify-diagnostics every error (and note) announced in a comment must be produced on
// the line it names, and nothing else may be reported. These are errors of the parser; the
// verifier's errors are in invalid.mlir.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// An op in custom form must belong to a registered dialect.
func.func @unknown_custom_op() {
  // expected-error@+1 {{custom op 'arith.frobnicate' is unknown}}
  %0 = arith.frobnicate : i32
  return
}

