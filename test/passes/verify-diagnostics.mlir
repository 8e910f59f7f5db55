// Diagnostics of passes (and of the verifier after each pass) are checked by
// --verify-diagnostics like parser and verifier ones; each --split-input-file chunk runs the
// pipeline on its own.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(test-fail))'

func.func @one() {
  // expected-error@+1 {{first marked op}}
  "test.a"() {test.fail = "first marked op"} : () -> ()
  // expected-error@+1 {{'test.b' op carries 'test.fail'}}
  "test.b"() {test.fail} : () -> ()
  return
}

// -----

// Every function is processed even after one fails, so both errors are reported.
func.func @two() {
  // expected-error@+1 {{in two}}
  "test.a"() {test.fail = "in two"} : () -> ()
  return
}
func.func @three() {
  // expected-error@+1 {{in three}}
  "test.a"() {test.fail = "in three"} : () -> ()
  return
}

// -----

// Ops outside the pipeline's anchors are not visited.
"test.top"() {test.fail = "not in a function"} : () -> ()
func.func @clean() {
  return
}
