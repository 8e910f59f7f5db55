
// Integer literals must fit their type (i8 holds -128 to 255).
// expected-error@+1 {{integer constant out of range for attribute}}
"t.op"() {a = 256 : i8} : () -> ()

