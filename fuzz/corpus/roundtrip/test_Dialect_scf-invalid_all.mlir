// The scf verifier's rules, each with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @yield_types(%lb: index, %x: f32, %i: i32) {
  %r = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    // expected-error@+1 {{'scf.yield' op types (i32) do not match the results of the enclosing 'scf.for' (f32)}}
    scf.yield %i : i32
  }
  return
}

// -----

func.func @bounds(%lb: index, %ub: i32) {
  // expected-error@+1 {{'scf.for' op expects lowerBound, upperBound and step of one type, but found 'index', 'i32' and 'index'}}
  "scf.for"(%lb, %ub, %lb) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @if_needs_else(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op must have an 'else' region when it has results}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @yield_parent(%x: f32) {
  // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.for', 'scf.if'}}
  scf.yield %x : f32
}

// -----

func.func @iter_arg_count(%lb: index, %x: f32) {
  // expected-error@+1 {{expected as many result types as iter_args (1), but found 2}}
  %r:2 = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x) -> (f32, f32) {
    scf.yield %a : f32
  }
  return
}
