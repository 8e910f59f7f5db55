
// expected-error@+1 {{floating point value not valid for specified type}}
"t.op"() {a = 1.5 : i32} : () -> ()

