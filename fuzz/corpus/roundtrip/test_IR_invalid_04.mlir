
func.func @f() {
  return
}
// expected-error@+1 {{redefinition of symbol named 'f'}}
func.func @f() {
  return
}
// expected-note@-7 {{see existing symbol definition here}}

