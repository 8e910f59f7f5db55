
func.func @undefined_block() {
  // expected-error@+1 {{reference to an undefined block '^missing'}}
  cf.br ^missing
}

