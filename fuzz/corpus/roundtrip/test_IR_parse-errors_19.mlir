
// The generic form's function type lists one type per operand.
func.func @operand_type_count(%a: i32) {
  // expected-error@+1 {{expected 2 operand types but had 1}}
  "t.use"(%a, %a) : (i32) -> ()
  return
}

