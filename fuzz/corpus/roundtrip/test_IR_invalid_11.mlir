
func.func @missing_attr() -> i32 {
  // expected-error@+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  return %0 : i32
}

