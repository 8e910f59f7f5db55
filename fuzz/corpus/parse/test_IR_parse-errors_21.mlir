
func.func @operand_type_count_one(%a: i32) {
  // expected-error@+1 {{expected 1 operand type but had 2}}
  "t.use"(%a) : (i32, i32) -> ()
  return
}

