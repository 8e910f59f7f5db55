
// A region that is never closed: the error is at the end of the input, i.e. on the line after
// the last one of this split.
func.func @unterminated_region() {
  %0 = arith.constant 1 : i32
// expected-error@+1 {{expected '}' to end the region}}
