
// expected-error@+1 {{integer constant out of range for attribute}}
"t.op"() {a = 0x1FF : i8} : () -> ()

