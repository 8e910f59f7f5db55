
func.func private @callee(i32) -> i32
func.func @call_types(%a: i64) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = func.call @callee(%a) : (i64) -> i32
  return
}

