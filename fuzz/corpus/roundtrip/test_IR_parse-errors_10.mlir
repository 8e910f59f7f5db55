
func.func @custom_type_mismatch() {
  // expected-note@+1 {{'%0' is defined here with type 'i32'}}
  %0 = arith.constant 1 : i32
  // expected-error@+1 {{use of value '%0' expects different type than prior uses: 'i64' vs 'i32'}}
  %1 = arith.addi %0, %0 : i64
  return
}

