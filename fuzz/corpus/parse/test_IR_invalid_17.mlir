
func.func @operand_count(%a: i32) {
  // expected-error@+1 {{'arith.addi' op requires 2 operands, but found 1}}
  %0 = "arith.addi"(%a) : (i32) -> i32
  return
}

