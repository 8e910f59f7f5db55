
// `%0:2 = ` binds two results; the op must define exactly that many, in custom form...
func.func @result_count_custom() {
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = arith.constant 1 : i32
  return
}

