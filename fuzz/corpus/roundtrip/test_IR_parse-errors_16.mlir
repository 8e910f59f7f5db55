
func.func @redefined_block() {
// expected-note@+1 {{previously defined here}}
^bb0:
  return
// expected-error@+1 {{redefinition of block '^bb0'}}
^bb0:
  return
}

