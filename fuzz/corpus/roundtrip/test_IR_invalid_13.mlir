
func.func @constant_type() {
  // expected-error@+1 {{'arith.constant' op value type 'i64' must match result type 'i32'}}
  %0 = "arith.constant"() {value = 1 : i64} : () -> i32
  return
}

