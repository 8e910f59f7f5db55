
func.func @successor_count() {
  // expected-error@+1 {{'cf.br' op branch has 0 operands for successor #0, but target block has 1}}
  cf.br ^bb1
^bb1(%x: i32):
  return
}

