
func.func @same_type(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results, but found 'i32' and 'i64'}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

