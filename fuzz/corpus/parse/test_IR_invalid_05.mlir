
func.func @successor_types(%a: i64) {
  // expected-error@+1 {{'cf.br' op type mismatch for bb argument #0 of successor #0: expected 'i32' (the block argument's type), but the operand is 'i64'}}
  cf.br ^bb1(%a : i64)
^bb1(%x: i32):
  return
}

