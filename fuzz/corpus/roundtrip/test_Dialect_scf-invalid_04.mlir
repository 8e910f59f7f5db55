
func.func @iter_arg_count(%lb: index, %x: f32) {
  // expected-error@+1 {{expected as many result types as iter_args (1), but found 2}}
  %r:2 = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x) -> (f32, f32) {
    scf.yield %a : f32
  }
  return
}
