
// expected-error@+1 {{integer constant out of range for attribute}}
"t.op"() {a = 99999999999999999999 : i64} : () -> ()

