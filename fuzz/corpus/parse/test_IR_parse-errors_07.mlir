
func.func @undeclared_value() {
  // expected-error@+1 {{use of undeclared SSA value name '%nope'}}
  "t.use"(%nope) : (i32) -> ()
  return
}

