
func.func @yield_parent(%x: f32) {
  // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.for', 'scf.if'}}
  scf.yield %x : f32
}

