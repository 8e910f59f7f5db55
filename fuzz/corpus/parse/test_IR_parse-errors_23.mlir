
// ... and in generic form, in both directions.
func.func @result_count_generic() {
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = "t.def"() : () -> i32
  return
}

