
func.func @redefined_value() {
  // expected-note@+1 {{previously defined here}}
  %x = arith.constant 1 : i32
  // expected-error@+1 {{redefinition of SSA value '%x'}}
  %x = arith.constant 2 : i32
  return
}

