// The scf verifier's rules, each with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @yield_types(%lb: index, %x: f32, %i: i32) {
  %r = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    // expected-error@+1 {{'scf.yield' op types (i32) do not match the results of the enclosing 'scf.for' (f32)}}
    scf.yield %i : i32
  }
  return
}

