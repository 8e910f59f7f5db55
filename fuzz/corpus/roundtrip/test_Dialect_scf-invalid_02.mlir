
func.func @if_needs_else(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op must have an 'else' region when it has results}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

