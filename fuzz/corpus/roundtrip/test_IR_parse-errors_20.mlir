
// expected-error@+1 {{expected 0 operand types but had 1}}
"t.op"() : (i32) -> ()

