
// A bare op name is also looked up in the default dialects of the enclosing ops.
func.func @unknown_bare_op() {
  // expected-error@+1 {{custom op 'frobnicate' is unknown (tried 'func.frobnicate', 'builtin.frobnicate' as well)}}
  %0 = frobnicate : i32
  return
}

